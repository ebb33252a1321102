"""Each portfolio file checked whole before any file is applied (issue 40 item 9): a file that is
too large, not UTF-8 (a Latin-1 or UTF-16 export), or not CSV a reader can parse (a NUL byte, a
cell beyond the csv module's field limit) is one FILE error, `FILE:LINE: file: reason`, and applies
nothing, as a missing required column does, instead of a traceback after earlier files applied."""
from __future__ import annotations

import codecs
import csv
from collections.abc import Iterator
from pathlib import Path

from desk.portfolio.report import RowError
from spine.errors import SpineError

MAX_FILE_BYTES = 256 * 1024 * 1024  # far above any export seen (100k people is ~10 MB); memory holds one file's rows
_BOMS = {codecs.BOM_UTF32_LE: "UTF-32", codecs.BOM_UTF32_BE: "UTF-32", codecs.BOM_UTF16_LE: "UTF-16",
         codecs.BOM_UTF16_BE: "UTF-16"}
_SAVE_AS = "save the export as UTF-8 CSV"


class _BadText(SpineError):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.reason = line, reason


def _lines(path: Path) -> Iterator[str]:
    """The file's lines decoded strictly as UTF-8 (a BOM allowed), by line number on failure.
    Splitting the bytes on newlines is safe: no UTF-8 sequence holds a newline byte."""
    with path.open("rb") as handle:
        for number, read in enumerate(handle, start=1):
            raw = read.removeprefix(codecs.BOM_UTF8) if number == 1 else read
            for bom, name in _BOMS.items() if number == 1 else ():  # UTF-32's LE mark begins with UTF-16's: first
                if raw.startswith(bom):
                    raise _BadText(1, f"the file is {name}, not UTF-8: {_SAVE_AS}")
            if b"\x00" in raw:
                raise _BadText(number, f"a NUL byte: not UTF-8 text (UTF-16 without a byte order mark?): {_SAVE_AS}")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                byte = raw[exc.start]
                raise _BadText(number, f"byte 0x{byte:02x} is not UTF-8 (a Latin-1 or Windows export?): "
                                       f"{_SAVE_AS}") from None


def check_file(path: Path, max_bytes: int = MAX_FILE_BYTES) -> RowError | None:
    """The one error that keeps the whole file from being read, or None."""
    size = path.stat().st_size
    if size > max_bytes:
        return RowError(file=path.name, line=1, column="file",
                        reason=f"{size:,} bytes is more than the {max_bytes:,} an import reads per file: "
                               "split it, or import it in parts")
    reader = csv.reader(_lines(path))
    try:
        for _ in reader:
            pass
    except _BadText as exc:
        return RowError(file=path.name, line=exc.line, column="file", reason=exc.reason)
    except csv.Error as exc:
        return RowError(file=path.name, line=max(reader.line_num, 1), column="file", reason=f"not readable as CSV: {exc}")
    return None
