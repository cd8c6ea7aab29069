"""The lab: what the project measures the assistant with, kept out of the product.

The synthetic rooms (:mod:`lab.scene`) and walk-through sessions (:mod:`lab.walkthrough`)
with their truth, the benchmark commands and their judges (:mod:`lab.commands`), the
flight recorder's cost (:mod:`lab.recorder_bench`) and the soak run (:mod:`lab.soak`).
The tests, the benchmarks and the golden record use them; the installed package and the
executable do not contain them (pyproject.toml installs ``assistant`` only, build.spec
excludes ``lab``). ``toa-assistant bench*`` finds this package when the assistant runs
from a checkout of the repository (assistant/cli.py) and says so when it does not.

The lab may import the product; the product never imports the lab
(scripts/check_structure.py).
"""
