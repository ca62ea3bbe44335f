"""Fails unless the given PNG exists and shows more than one flat colour.

Reads 8-bit RGB or RGBA PNGs (what the game writes) with the standard library only.
"""

import struct
import sys
import zlib


def paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_rows(path: str):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour})")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filter_type, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + left) & 0xFF
            elif filter_type == 2:
                line[i] = (line[i] + up) & 0xFF
            elif filter_type == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif filter_type == 4:
                line[i] = (line[i] + paeth(left, up, up_left)) & 0xFF
        previous = line
        yield width, height, channels, line


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: check_screenshot.py FILE.png", file=sys.stderr)
        return 2
    path = sys.argv[1]
    try:
        colours = set()
        size = None
        for width, height, channels, line in decode_rows(path):
            size = (width, height)
            for x in range(0, len(line), channels):
                colours.add(bytes(line[x : x + 3]))
    except (OSError, ValueError, zlib.error) as err:
        print(f"screenshot check failed: {path}: {err}", file=sys.stderr)
        return 1
    if len(colours) < 2:
        print(f"screenshot check failed: {path} is one flat colour", file=sys.stderr)
        return 1
    print(f"screenshot ok: {path}, {size[0]}x{size[1]}, {len(colours)} distinct colours")
    return 0


if __name__ == "__main__":
    sys.exit(main())
