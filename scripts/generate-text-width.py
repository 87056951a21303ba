#!/usr/bin/env python3
"""Writes Sources/ArcadeRender/Text/UnicodeWidthTable.swift from the Unicode Character Database.

usage: python3 scripts/generate-text-width.py [UCD_DIR] [OUT.swift]

UCD_DIR defaults to /usr/share/unicode, where Debian's `unicode-data` package puts the
database (`apt-get install unicode-data`). It reads EastAsianWidth.txt (with the defaults
that extracted/DerivedEastAsianWidth.txt states for unassigned code points),
extracted/DerivedGeneralCategory.txt, DerivedCoreProperties.txt, PropList.txt,
HangulSyllableType.txt and emoji/emoji-data.txt and emoji/emoji-variation-sequences.txt.

The table gives every code point one byte: how many cells it takes on its own (its kind)
and the few emoji properties that decide how it joins the characters around it. It is a
list of runs (a run starts where the byte changes), so it stays small: the renderer looks a
code point up with a binary search. The build never runs this script: run it again, and
commit what it writes, to move to a newer Unicode version.
"""
import os
import re
import sys

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "ArcadeRender", "Text", "UnicodeWidthTable.swift")

SIZE = 0x110000

# Kinds (the low three bits).
ZERO, NARROW, WIDE, DROPPED, CONTROL = 0, 1, 2, 3, 4
# Flags.
EMOJI_VS16 = 1 << 3      # a text-style emoji that VS16 (U+FE0F) turns into a wide emoji
PICTOGRAPHIC = 1 << 4    # Extended_Pictographic: joins a cluster after a ZWJ
REGIONAL = 1 << 5        # Regional_Indicator: two make one flag
MODIFIER = 1 << 6        # Emoji_Modifier (skin tones): joins the emoji before it

LINE = re.compile(r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([^#;]+?)\s*(?:[;#].*)?$")


def ranges(path, missing=False):
    """(first, last, value) for each data line; with `missing`, the @missing lines instead."""
    out = []
    with open(os.path.join(UCD, path), encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if missing:
                if not line.startswith("# @missing:"):
                    continue
                line = line[len("# @missing:"):].strip()
            elif not line or line.startswith("#"):
                continue
            m = LINE.match(line)
            if m:
                first = int(m.group(1), 16)
                last = int(m.group(2), 16) if m.group(2) else first
                out.append((first, last, m.group(3).strip()))
    return out


def version():
    with open(os.path.join(UCD, "EastAsianWidth.txt"), encoding="utf-8") as f:
        m = re.search(r"EastAsianWidth-(\d+\.\d+\.\d+)\.txt", f.readline())
    return m.group(1) if m else "unknown"


def main():
    # East Asian Width: the defaults for unassigned code points first, then the listed ones.
    eaw = ["N"] * SIZE
    for first, last, value in ranges("extracted/DerivedEastAsianWidth.txt", missing=True):
        short = {"Wide": "W", "Fullwidth": "F", "Neutral": "N", "Ambiguous": "A", "Halfwidth": "H",
                 "Narrow": "Na"}.get(value, value)
        for cp in range(first, last + 1):
            eaw[cp] = short
    for first, last, value in ranges("EastAsianWidth.txt"):
        for cp in range(first, last + 1):
            eaw[cp] = value

    category = ["Cn"] * SIZE
    for first, last, value in ranges("extracted/DerivedGeneralCategory.txt"):
        for cp in range(first, last + 1):
            category[cp] = value

    def prop(path, name):
        found = set()
        for first, last, value in ranges(path):
            if value == name:
                found.update(range(first, last + 1))
        return found

    ignorable = prop("DerivedCoreProperties.txt", "Default_Ignorable_Code_Point")
    prepended = prop("PropList.txt", "Prepended_Concatenation_Mark")
    regional = prop("PropList.txt", "Regional_Indicator")
    jamo = prop("HangulSyllableType.txt", "V") | prop("HangulSyllableType.txt", "T")
    pictographic = prop("emoji/emoji-data.txt", "Extended_Pictographic")
    modifier = prop("emoji/emoji-data.txt", "Emoji_Modifier")
    emoji_style = set()
    for raw in open(os.path.join(UCD, "emoji/emoji-variation-sequences.txt"), encoding="utf-8"):
        m = re.match(r"^([0-9A-F]+) FE0F\s*;\s*emoji style", raw)
        if m:
            emoji_style.add(int(m.group(1), 16))

    table = bytearray(SIZE)
    for cp in range(SIZE):
        gc = category[cp]
        if gc == "Cc":
            kind = CONTROL
        elif cp == 0x200D or gc in ("Mn", "Me") or cp in jamo:
            kind = ZERO  # ZWJ, combining marks, Hangul medial vowels and final consonants
        elif (gc in ("Cf", "Zl", "Zp") or cp in ignorable) and cp not in prepended:
            kind = DROPPED  # bidi controls, invisible format characters, fillers
        elif eaw[cp] in ("W", "F"):
            kind = WIDE
        else:
            kind = NARROW
        flags = 0
        if cp in emoji_style and kind == NARROW:
            flags |= EMOJI_VS16
        if cp in pictographic:
            flags |= PICTOGRAPHIC
        if cp in regional:
            flags |= REGIONAL
        if cp in modifier:
            flags |= MODIFIER
        table[cp] = kind | flags

    starts, values = [], []
    for cp in range(SIZE):
        if cp == 0 or table[cp] != table[cp - 1]:
            starts.append(cp)
            values.append(table[cp])

    def rows(items, per_line, fmt):
        lines = []
        for i in range(0, len(items), per_line):
            lines.append("        " + ", ".join(fmt(v) for v in items[i:i + per_line]) + ",")
        return "\n".join(lines)

    ver = version()
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(f"""// Generated by scripts/generate-text-width.py from the Unicode Character Database
// {ver} (Debian's unicode-data package): EastAsianWidth, DerivedGeneralCategory,
// DerivedCoreProperties, PropList, HangulSyllableType, emoji-data and
// emoji-variation-sequences. Do not edit: run the script again instead.

/// Every code point's kind and emoji properties, as runs: run `i` covers the code points
/// from `starts[i]` up to the next run's start, and `values[i]` is its byte (see
/// ``TextWidth``: the low three bits are the kind, the others flags).
enum UnicodeWidthTable {{
    /// The Unicode version the table follows.
    static let unicodeVersion = "{ver}"

    static let starts: [UInt32] = [
{rows(starts, 10, lambda v: f"0x{v:X}")}
    ]

    static let values: [UInt8] = [
{rows(values, 16, lambda v: str(v))}
    ]
}}
""")
    print(f"Unicode {ver}: {len(starts)} runs -> {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
