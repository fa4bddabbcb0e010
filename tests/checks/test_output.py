"""Output files (:mod:`checks.output`): written atomically with the user's umask, a previous
dpcheck output replaced, anyone else's file refused with one line unless forced, an empty
path or a folder refused."""
from __future__ import annotations

import os
import stat

import pytest

from checks import output
from checks.output import MARK, OutputError, check_destination, is_dpcheck_output, write_atomic


@pytest.fixture
def umask():
    """Set the process umask for one test, restoring it after."""
    old = os.umask(0o022)
    os.umask(old)

    def set_(mask):
        os.umask(mask)
    yield set_
    os.umask(old)


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_new_file_gets_the_data_its_folders_and_no_temporary(tmp_path):
    dest = tmp_path / "sub" / "deeper" / "out.json"
    got = write_atomic(dest, '{"tool": "dpcheck"}')
    assert got == str(dest)
    assert dest.read_text(encoding="utf-8") == '{"tool": "dpcheck"}'
    assert _leftovers(dest.parent) == []
    write_atomic(tmp_path / "raw.png", b"\x89PNG\r\n")
    assert (tmp_path / "raw.png").read_bytes() == b"\x89PNG\r\n"


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_the_mode_follows_the_umask_not_mkstemp(tmp_path, umask, mask, mode):
    umask(mask)
    p = tmp_path / "report.md"
    write_atomic(p, "<!-- dpcheck -->\n")
    assert stat.S_IMODE(p.stat().st_mode) == mode


def test_a_previous_dpcheck_output_is_replaced(tmp_path):
    p = tmp_path / "out.md"
    p.write_text(f"<!-- {MARK} report -->\nold\n", encoding="utf-8")
    write_atomic(p, f"<!-- {MARK} -->\nnew\n")
    assert p.read_text(encoding="utf-8").endswith("new\n")


def test_a_foreign_file_is_refused_in_one_line_and_left_intact(tmp_path):
    p = tmp_path / "notes.py"
    p.write_text("print('mine')\n", encoding="utf-8")
    with pytest.raises(OutputError) as exc:
        write_atomic(p, "{}")
    msg = str(exc.value)
    assert "\n" not in msg
    assert "notes.py" in msg and "not a dpcheck output" in msg and "--force" in msg
    assert p.read_text(encoding="utf-8") == "print('mine')\n"
    assert _leftovers(tmp_path) == []
    # the mark must be near the start: one far down does not make a file ours
    far = tmp_path / "far.json"
    far.write_text(" " * 5000 + MARK, encoding="utf-8")
    with pytest.raises(OutputError):
        write_atomic(far, "{}")


def test_force_replaces_a_foreign_file(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("mine", encoding="utf-8")
    write_atomic(p, "theirs", force=True)
    assert p.read_text(encoding="utf-8") == "theirs"


def test_output_error_is_a_value_error():
    assert issubclass(OutputError, ValueError)


@pytest.mark.parametrize("bad", [None, "", "   "])
def test_an_empty_path_is_an_error_not_the_terminal(bad):
    with pytest.raises(OutputError, match="^--out must name a file, got an empty path$"):
        check_destination(bad)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(OutputError, match="is a folder; name a file"):
        write_atomic(tmp_path, "x", force=True)


def test_a_figure_beside_a_dpcheck_output_is_ours_and_alone_it_is_not(tmp_path):
    fig = tmp_path / "plot.png"
    fig.write_bytes(b"\x89PNG")
    assert not is_dpcheck_output(fig)
    with pytest.raises(OutputError):
        write_atomic(fig, b"new")
    (tmp_path / "other.json").write_text('{"x": 1}', encoding="utf-8")
    assert not is_dpcheck_output(fig)            # a JSON file, but not ours
    (tmp_path / "report.json").write_text(f'{{"{MARK}": "1"}}', encoding="utf-8")
    assert is_dpcheck_output(fig)
    write_atomic(fig, b"new")
    assert fig.read_bytes() == b"new"


def test_an_unreadable_or_missing_file_is_not_ours(tmp_path):
    assert not is_dpcheck_output(tmp_path / "missing.json")


def test_a_failed_replace_keeps_the_old_file_and_removes_the_temporary(tmp_path, monkeypatch):
    p = tmp_path / "out.json"
    p.write_text(f'{{"{MARK}": "old"}}', encoding="utf-8")

    def boom(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(output.os, "replace", boom)
    with pytest.raises(OutputError, match=r"^cannot write '.*out\.json': No space left on device$"):
        write_atomic(p, f'{{"{MARK}": "new"}}')
    assert p.read_text(encoding="utf-8") == f'{{"{MARK}": "old"}}'
    assert _leftovers(tmp_path) == []


def test_an_interrupt_mid_write_propagates_and_leaves_no_temporary(tmp_path, monkeypatch):
    p = tmp_path / "out.json"

    def interrupted(path, mode):
        raise KeyboardInterrupt
    monkeypatch.setattr(output.os, "chmod", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(p, "{}")
    assert not p.exists() and _leftovers(tmp_path) == []


def test_an_unwritable_folder_is_one_line(tmp_path):
    if os.geteuid() == 0:
        # root writes anywhere: a file where the folder should be makes mkdir fail instead
        (tmp_path / "blocker").write_text("x", encoding="utf-8")
        dest = tmp_path / "blocker" / "out.json"
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        dest = ro / "out.json"
    with pytest.raises(OutputError, match=r"^cannot write '.*out\.json': "):
        write_atomic(dest, "{}")
