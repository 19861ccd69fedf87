import pytest

from swizzlekit.lab.ncu import NcuError, parse_csv
from swizzlekit.lab.experiments.banks import Pattern, patterns, read_table, write_table


def test_parse_csv_skips_chatter_and_units():
    text = ('==PROF== Connected\nprogram output\n"ID","Kernel Name","m.sum"\n"","","byte"\n'
            '"0","k","2,048"\n"1","k2","n/a"\n')
    rows = parse_csv(text)
    assert [r["m.sum"] for r in rows] == [2048.0, "n/a"]


def test_parse_csv_without_header_is_an_error():
    with pytest.raises(NcuError, match="no CSV header"):
        parse_csv("==PROF== nothing")


def test_patterns_are_valid_and_table_round_trips(tmp_path):
    pats = patterns()
    assert len(pats) >= 300
    assert len({(p.op, p.width, p.name) for p in pats}) == len(pats)   # rows are identifiable
    fake = [{f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{k}.sum": 3.0 for k in ("ld", "st")}
            | {f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{k}.sum": 1.0 for k in ("ld", "st")}
            | {"smsp__sass_inst_executed_op_shared.sum": 1.0} for _ in pats[:5]]
    write_table(tmp_path / "t.csv", pats[:5], fake)
    back = read_table(tmp_path / "t.csv")
    assert [r["addresses"] for r in back] == [list(p.addresses) for p in pats[:5]]
    assert all(r["wavefronts"] == 3 for r in back)
    with pytest.raises(RuntimeError, match="profiled 5 launches for 6 patterns"):
        write_table(tmp_path / "t.csv", pats[:6], fake)


def test_pattern_line_format():
    p = Pattern("x", "ld", 4, (0, None) + (4,) * 30)
    assert p.line().startswith("ld 4 0 -1 4")
