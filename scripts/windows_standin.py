"""A stand-in game window for the Windows smoke run: a real Win32 top-level window, made
with ctypes (RegisterClassW, CreateWindowExW) and painted with StretchDIBits, that shows
one picture of the puzzle room pixel for pixel in its client area.

Run by a Windows Python under wine (tests/test_windows_smoke.py), never on Linux:

    python.exe windows_standin.py ROOM.bgra "RuneLite - stand-in" CONTROL_FILE

``ROOM.bgra`` holds two little-endian uint32 (width, height) and then the BGRA pixels,
top row first. The window declares itself per-monitor DPI aware, as the RuneLite client
(Java 9 and later) does, so its client area is exactly the picture's size in physical
pixels at any display scaling. Once shown it prints one line of JSON: the client area's
origin and size on the screen, in physical pixels. It repaints when ROOM.bgra changes
(the player stepped) and closes when CONTROL_FILE contains ``close``.
"""

from __future__ import annotations

import ctypes
import json
import os
import struct
import sys
from ctypes import wintypes

user32 = ctypes.WinDLL("user32", use_last_error=True)
gdi32 = ctypes.WinDLL("gdi32", use_last_error=True)
kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)

WNDPROC = ctypes.WINFUNCTYPE(ctypes.c_ssize_t, wintypes.HWND, wintypes.UINT,
                             wintypes.WPARAM, wintypes.LPARAM)
WS_OVERLAPPEDWINDOW = 0x00CF0000
WS_VISIBLE = 0x10000000
WM_DESTROY, WM_PAINT, WM_TIMER, WM_CLOSE = 0x0002, 0x000F, 0x0113, 0x0010
SRCCOPY = 0x00CC0020
DIB_RGB_COLORS = 0
TIMER_ID = 1


class WNDCLASSW(ctypes.Structure):
    _fields_ = [("style", wintypes.UINT), ("lpfnWndProc", WNDPROC),
                ("cbClsExtra", ctypes.c_int), ("cbWndExtra", ctypes.c_int),
                ("hInstance", wintypes.HINSTANCE), ("hIcon", wintypes.HICON),
                ("hCursor", wintypes.HANDLE), ("hbrBackground", wintypes.HBRUSH),
                ("lpszMenuName", wintypes.LPCWSTR), ("lpszClassName", wintypes.LPCWSTR)]


class PAINTSTRUCT(ctypes.Structure):
    _fields_ = [("hdc", wintypes.HDC), ("fErase", wintypes.BOOL), ("rcPaint", wintypes.RECT),
                ("fRestore", wintypes.BOOL), ("fIncUpdate", wintypes.BOOL),
                ("rgbReserved", ctypes.c_byte * 32)]


class BITMAPINFOHEADER(ctypes.Structure):
    _fields_ = [("biSize", wintypes.DWORD), ("biWidth", wintypes.LONG),
                ("biHeight", wintypes.LONG), ("biPlanes", wintypes.WORD),
                ("biBitCount", wintypes.WORD), ("biCompression", wintypes.DWORD),
                ("biSizeImage", wintypes.DWORD), ("biXPelsPerMeter", wintypes.LONG),
                ("biYPelsPerMeter", wintypes.LONG), ("biClrUsed", wintypes.DWORD),
                ("biClrImportant", wintypes.DWORD)]


user32.DefWindowProcW.argtypes = [wintypes.HWND, wintypes.UINT, wintypes.WPARAM,
                                  wintypes.LPARAM]
user32.DefWindowProcW.restype = ctypes.c_ssize_t
user32.CreateWindowExW.argtypes = [wintypes.DWORD, wintypes.LPCWSTR, wintypes.LPCWSTR,
                                   wintypes.DWORD, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_int, wintypes.HWND, wintypes.HMENU,
                                   wintypes.HINSTANCE, wintypes.LPVOID]
user32.CreateWindowExW.restype = wintypes.HWND
user32.BeginPaint.argtypes = [wintypes.HWND, ctypes.POINTER(PAINTSTRUCT)]
user32.BeginPaint.restype = wintypes.HDC
user32.EndPaint.argtypes = [wintypes.HWND, ctypes.POINTER(PAINTSTRUCT)]
user32.SetTimer.argtypes = [wintypes.HWND, ctypes.c_size_t, wintypes.UINT, wintypes.LPVOID]
user32.SetTimer.restype = ctypes.c_size_t
user32.InvalidateRect.argtypes = [wintypes.HWND, wintypes.LPVOID, wintypes.BOOL]
user32.ClientToScreen.argtypes = [wintypes.HWND, ctypes.POINTER(wintypes.POINT)]
user32.GetClientRect.argtypes = [wintypes.HWND, ctypes.POINTER(wintypes.RECT)]
user32.AdjustWindowRectEx.argtypes = [ctypes.POINTER(wintypes.RECT), wintypes.DWORD,
                                      wintypes.BOOL, wintypes.DWORD]
user32.DestroyWindow.argtypes = [wintypes.HWND]
user32.GetMessageW.argtypes = [ctypes.POINTER(wintypes.MSG), wintypes.HWND, wintypes.UINT,
                               wintypes.UINT]
user32.TranslateMessage.argtypes = [ctypes.POINTER(wintypes.MSG)]
user32.DispatchMessageW.argtypes = [ctypes.POINTER(wintypes.MSG)]
gdi32.StretchDIBits.argtypes = [wintypes.HDC] + [ctypes.c_int] * 8 + [
    ctypes.c_void_p, ctypes.c_void_p, wintypes.UINT, wintypes.DWORD]


def load_picture(path: str) -> tuple[int, int, bytes]:
    with open(path, "rb") as handle:
        data = handle.read()
    width, height = struct.unpack("<II", data[:8])
    pixels = data[8:]
    if len(pixels) != width * height * 4:
        raise SystemExit(f"{path}: expected {width}x{height} BGRA pixels")
    return width, height, pixels


class StandIn:
    def __init__(self, picture: str, title: str, control: str) -> None:
        self.picture, self.control = picture, control
        self.stamp = os.stat(picture).st_mtime_ns
        self.width, self.height, self.pixels = load_picture(picture)
        self.proc = WNDPROC(self.window_proc)  # kept alive as long as the window
        instance = kernel32.GetModuleHandleW(None)
        wc = WNDCLASSW(lpfnWndProc=self.proc, hInstance=instance,
                       lpszClassName="ToAStandIn", hbrBackground=None)
        if not user32.RegisterClassW(ctypes.byref(wc)):
            raise ctypes.WinError(ctypes.get_last_error())
        frame = wintypes.RECT(0, 0, self.width, self.height)
        user32.AdjustWindowRectEx(ctypes.byref(frame), WS_OVERLAPPEDWINDOW, False, 0)
        self.hwnd = user32.CreateWindowExW(
            0, "ToAStandIn", title, WS_OVERLAPPEDWINDOW | WS_VISIBLE, 40, 40,
            frame.right - frame.left, frame.bottom - frame.top, None, None, instance, None)
        if not self.hwnd:
            raise ctypes.WinError(ctypes.get_last_error())
        user32.SetTimer(self.hwnd, TIMER_ID, 100, None)

    def bitmap_info(self) -> BITMAPINFOHEADER:
        # a negative height: the rows are stored top row first
        return BITMAPINFOHEADER(biSize=ctypes.sizeof(BITMAPINFOHEADER), biWidth=self.width,
                                biHeight=-self.height, biPlanes=1, biBitCount=32,
                                biCompression=0)

    def paint(self) -> None:
        paint = PAINTSTRUCT()
        hdc = user32.BeginPaint(self.hwnd, ctypes.byref(paint))
        info = self.bitmap_info()
        gdi32.StretchDIBits(hdc, 0, 0, self.width, self.height, 0, 0, self.width,
                            self.height, self.pixels, ctypes.byref(info), DIB_RGB_COLORS,
                            SRCCOPY)
        user32.EndPaint(self.hwnd, ctypes.byref(paint))

    def poll(self) -> None:
        """Repaint a changed picture; close when asked."""
        try:
            with open(self.control, encoding="ascii") as handle:
                if handle.read().strip() == "close":
                    user32.DestroyWindow(self.hwnd)
                    return
        except OSError:
            pass
        stamp = os.stat(self.picture).st_mtime_ns
        if stamp != self.stamp:
            try:
                width, height, pixels = load_picture(self.picture)
            except (OSError, SystemExit, struct.error):
                return  # half written: the next tick reads it whole
            if (width, height) == (self.width, self.height):
                self.stamp, self.pixels = stamp, pixels
                user32.InvalidateRect(self.hwnd, None, False)

    def window_proc(self, hwnd, message, wparam, lparam):
        if message == WM_PAINT:
            self.paint()
            return 0
        if message == WM_TIMER:
            self.poll()
            return 0
        if message == WM_DESTROY:
            user32.PostQuitMessage(0)
            return 0
        return user32.DefWindowProcW(hwnd, message, wparam, lparam)

    def client_area(self) -> dict[str, int]:
        origin = wintypes.POINT(0, 0)
        user32.ClientToScreen(self.hwnd, ctypes.byref(origin))
        rect = wintypes.RECT()
        user32.GetClientRect(self.hwnd, ctypes.byref(rect))
        return {"left": origin.x, "top": origin.y, "width": rect.right - rect.left,
                "height": rect.bottom - rect.top}


def main(argv: list[str]) -> int:
    picture, title, control = argv
    # Per-monitor v2 where the system has it, else per-monitor (Windows 8.1) awareness.
    if not user32.SetProcessDpiAwarenessContext(ctypes.c_void_p(-4)):
        ctypes.WinDLL("shcore").SetProcessDpiAwareness(2)
    window = StandIn(picture, title, control)
    user32.UpdateWindow(window.hwnd)
    print(json.dumps(window.client_area()), flush=True)
    message = wintypes.MSG()
    while user32.GetMessageW(ctypes.byref(message), None, 0, 0) > 0:
        user32.TranslateMessage(ctypes.byref(message))
        user32.DispatchMessageW(ctypes.byref(message))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
