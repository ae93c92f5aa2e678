"""bcast.verify_mlir against the expected-error annotations MLIR 22's
own --verify-diagnostics accepts in tests/data/verify, and bcast.lower
against the checked-in golden outputs of tests/data/lower (their
"bcast-lower-flags" as keyword arguments)."""
import pathlib
import re

import pytest

import bcast

DATA = pathlib.Path(__file__).resolve().parent.parent / "data"

ANNOTATION = re.compile(
    r"expected-error(-re)? *(@([+-][0-9]+|above|below))? *\{\{(.*)\}\}$")


def annotation_regex(text, is_re):
    """MLIR's rule: literal text with {{regex}} parts."""
    if not is_re:
        return re.escape(text)
    out, pos = "", 0
    for m in re.finditer(r"\{\{(.*?)\}\}", text):
        out += re.escape(text[pos:m.start()]) + "(" + m.group(1) + ")"
        pos = m.end()
    return out + re.escape(text[pos:])


def expected_errors(text):
    lines = text.split("\n")
    plain = [i + 1 for i, l in enumerate(lines) if "expected-" not in l]
    out = []
    for i, line in enumerate(lines, 1):
        m = ANNOTATION.search(line.rstrip())
        if not m:
            continue
        where = m.group(3)
        if where is None:
            at = i
        elif where == "above":
            at = max(p for p in plain if p < i)
        elif where == "below":
            at = min(p for p in plain if p > i)
        else:
            at = i + int(where)
        out.append((at, annotation_regex(m.group(4), m.group(1))))
    return out


@pytest.mark.parametrize("name,profile", [("tosa.mlir", None), ("trait.mlir", "mlir")])
def test_verify_matches_annotations(name, profile):
    text = (DATA / "verify" / name).read_text()
    want = expected_errors(text)
    assert want, "the file has annotations"
    got = bcast.verify_mlir(text, profile=profile)
    assert len(got) == len(want), got
    for d in got:
        assert set(d) == {"line", "column", "op", "message", "notes", "status", "profile",
                          "outcome"}
        assert d["outcome"] == "failed"
        match = [w for w in want if w[0] == d["line"] and re.search(w[1], d["message"])]
        assert match, (d, want)
        assert d["column"] >= 1 and d["op"] in text.split("\n")[d["line"] - 1]


def test_verify_stablehlo_cannot_check_and_options():
    """StableHLO's ops are checked by default; an op outside bcast's model
    comes back as 'cannot check', never as a pass; no_dialect and
    chlo_rule as the CLI's --no-dialect and --chlo-rule."""
    bad = ("%0 = stablehlo.broadcast_in_dim %x, dims = [1] : "
           "(tensor<3xi32>) -> tensor<2x2xi32>\n")
    [d] = bcast.verify_mlir(bad)
    assert d["outcome"] == "failed" and d["op"] == "stablehlo.broadcast_in_dim"
    assert "size of operand dimension 0 (3)" in d["message"]
    assert bcast.verify_mlir(bad, no_dialect=["stablehlo"]) == []
    token = ('%0 = "chlo.broadcast_add"(%a, %b) : (tensor<2x!foo.bar>, tensor<2x!foo.bar>)'
             " -> tensor<2x!foo.bar>\n")
    [d] = bcast.verify_mlir(token)
    assert d["outcome"] == "cannot check" and "cannot check" in d["message"]
    lenient = ("%0 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : "
               "(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n")
    assert bcast.verify_mlir(lenient) == []
    [d] = bcast.verify_mlir(lenient, chlo_rule="xla")
    assert d["outcome"] == "failed"
    with pytest.raises(ValueError, match="chlo_rule"):
        bcast.verify_mlir(lenient, chlo_rule="strict")
    with pytest.raises(ValueError, match="unknown dialect 'mhlo'"):
        bcast.verify_mlir(lenient, no_dialect=["mhlo"])
    with pytest.raises(TypeError):
        bcast.verify_mlir(lenient, no_dialect=[3])


def test_verify_tosa_validate():
    """tosa_validate=True is the CLI's --tosa-validate: the type checks of
    mlir-opt's -tosa-validate pass, in its words (the message of
    invalid.mlir's @test_add_i1)."""
    add = ("%0 = tosa.add %a, %b : (tensor<13x21x1xi1>, tensor<13x21x3xi1>) "
           "-> tensor<13x21x3xi1>\n")
    assert bcast.verify_mlir(add) == []
    [d] = bcast.verify_mlir(add, tosa_validate=True)
    assert d["outcome"] == "failed" and d["op"] == "tosa.add"
    assert d["message"] == (
        "'tosa.add' op illegal: operation operand/result data types did not "
        "align with any profile or extension, got (i1,i1,i1), did you mean "
        "(i32,i32,i32)? Otherwise, please refer to the 'supported data types' "
        "for 'tosa.add' in the specification.")
    assert bcast.verify_mlir(add.replace("xi1>", "xi32>"), tosa_validate=True) == []


def test_verify_notes_and_profiles():
    text = ("%r = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>\n"
            "%s = \"my.add\"(%a, %b) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n")
    [d] = bcast.verify_mlir(text)
    assert d["line"] == 1 and d["column"] == 6 and d["op"] == "tosa.add"
    assert d["profile"] == "tosa" and d["status"] == "BCAST_INCOMPATIBLE"
    assert d["notes"] and "3" in d["notes"][0] and "4" in d["notes"][0]
    assert len(bcast.verify_mlir(text, profile="tosa")) == 1
    assert bcast.verify_mlir(text, profile="tosa", ops=["my.add"])[1]["line"] == 2
    assert len(bcast.verify_mlir(text, ops=["my.add"])) == 1
    assert len(bcast.verify_mlir(text, op_profile="my.add=tosa")) == 2
    assert len(bcast.verify_mlir(text, op_profile={"my.add": "numpy"})) == 1
    assert bcast.verify_mlir(text.encode(), op_profile=["tosa.*=trait"])[0]["profile"] == "trait"
    assert bcast.verify_mlir("") == []
    with pytest.raises(ValueError):
        bcast.verify_mlir(text, op_profile="no-equals-sign")


def flags_of(text):
    m = re.search(r"// bcast-lower-flags: (.*)", text)
    words = m.group(1).split() if m else []
    kwargs = {}
    while words:
        flag = words.pop(0)
        if flag == "--only":
            kwargs.setdefault("only", []).append(words.pop(0))
        elif flag == "--assert-broadcast":
            kwargs["assert_broadcast"] = True
        elif flag == "--profile":
            kwargs["profile"] = words.pop(0)
        elif flag == "--op-profile":
            kwargs.setdefault("op_profile", []).append(words.pop(0))
        else:
            pytest.fail("unknown flag " + flag)
    return kwargs


LOWER_CASES = sorted((DATA / "lower").glob("*.mlir"))


@pytest.mark.parametrize("path", LOWER_CASES, ids=[p.stem for p in LOWER_CASES])
def test_lower_matches_golden(path):
    text = path.read_text()
    golden = path.with_suffix(".golden").read_text()
    kwargs = flags_of(text)
    # the goldens were made from standard input
    assert bcast.lower(text, source_name="<stdin>", **kwargs) == golden


def test_lower_reports_every_failing_op():
    text = ("%0 = tosa.add %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
            "%1 = tosa.sub %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>\n"
            "%2 = tosa.mul %a, %b : (tensor<2xf32>, tensor<5xf32>) -> tensor<5xf32>\n")
    with pytest.raises(bcast.MLIRError) as e:
        bcast.lower(text)
    assert isinstance(e.value, ValueError)
    assert [d["line"] for d in e.value.diagnostics] == [1, 3]
    assert "1:6:" in str(e.value) and "3:6:" in str(e.value)
    assert "tosa.sub" not in bcast.lower(text, only=["sub"]).split("\n")[1]


def test_undecodable_text_and_names():
    """Bytes that are not UTF-8 are reported, not a codec error: lower
    raises MLIRError for the op verify_mlir reports (the message decoded
    with U+FFFD).  Names that are no UTF-8 text (a lone surrogate) are a
    ValueError naming the argument, not SystemError."""
    text = (b'%0 = "tosa.add"(%a, %b) : (tensor<2x\xffxf32>, tensor<3xf32>)'
            b' -> tensor<3xf32>\n')
    found = bcast.verify_mlir(text)
    assert [(d["line"], d["column"]) for d in found] == [(1, 6)]
    assert "\ufffd" in found[0]["message"]
    with pytest.raises(bcast.MLIRError) as e:
        bcast.lower(text)
    assert [(d["line"], d["column"]) for d in e.value.diagnostics] == [(1, 6)]
    assert "\ufffd" in str(e.value)
    add = ("%0 = tosa.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
           '%1 = "test.op"(%0) : (tensor<2xf32>) -> tensor<2xf32>\n')
    for call, name in [(lambda: bcast.verify_mlir(add, ops=["\ud800"]), "ops"),
                       (lambda: bcast.verify_mlir(add, op_profile={"\ud800": "numpy"}),
                        "op_profile"),
                       (lambda: bcast.verify_mlir("\ud800"), "text"),
                       (lambda: bcast.lower(add, only=["\ud800"]), "only"),
                       (lambda: bcast.lower(add, source_name="\ud800"), "source_name"),
                       (lambda: bcast.lower(add, source_name="a\0b"), "source_name")]:
        with pytest.raises(ValueError) as e:
            call()
        assert type(e.value) is ValueError and name in str(e.value)
    with pytest.raises(TypeError, match="only"):
        bcast.lower(add, only=[3])


def test_lower_only_takes_every_name():
    """only= may name an op many times: the last name still counts (the
    list has room for each op once, and extra names were dropped)."""
    text = ("%0 = tosa.add %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>\n"
            "%1 = tosa.sub %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>\n")
    both = bcast.lower(text, only=["add"] * 100 + ["tosa.sub"])
    assert "arith.subf" in both and "tosa." not in both
    one = bcast.lower(text, only=["add"] * 100)
    assert "arith.addf" in one and "tosa.sub" in one and "arith.subf" not in one


PARTIAL_ARGS = sorted((DATA / "lower").glob("partial_*.args"))


def partial_call(args):
    """bcast.lower_partial's arguments for a `broadcast-in-dim --emit`
    command line of tests/data/lower/partial_*.args."""
    opts = dict(zip(args[::2], args[1::2]))
    flags = {a for a in args if a == "--assert-broadcast"}
    shape = [None if d == "?" else int(d) for d in opts["--operand"].strip("[]").split(",") if d]
    dims = [int(d) for d in opts["--dims"].split(",") if d]
    new = {int(o): None if s == "?" else int(s)
           for o, s in (e.split(":") for e in opts["--new-dims"].split(","))}
    kwargs = {"form": opts["--emit"], "assert_broadcast": bool(flags)}
    if "--elem" in opts:
        kwargs["dtype"] = opts["--elem"]
    if "--func" in opts:
        kwargs["name"] = opts["--func"]
    return (shape, dims, new), kwargs


@pytest.mark.parametrize("path", PARTIAL_ARGS, ids=lambda p: p.stem)
def test_lower_partial_matches_golden(path):
    """lower_partial writes what `bcast broadcast-in-dim --emit` writes."""
    args, kwargs = partial_call(path.read_text().replace("--assert-broadcast", "--assert-broadcast 1").split())
    assert bcast.lower_partial(*args, **kwargs) == path.with_suffix(".golden").read_text()


def test_lower_partial_arguments():
    """Dynamic dims as None or '?', NumPy or MLIR dtype names; errors name
    the culprit."""
    a = bcast.lower_partial((None, 3), (0, 2), {1: None}, dtype="float32")
    assert a == bcast.lower_partial("[?,3]", [0, 2], {1: None}, dtype="f32")
    assert "%size1: index" in a and "linalg.broadcast" in a
    s = bcast.lower_partial((None, 1), (0, 2), {1: 4, 2: None}, form="stablehlo", name="g")
    assert "func.func @g(" in s and "known_expanding_dimensions = array<i64: 1>" in s
    with pytest.raises(ValueError, match="output dim 0"):
        bcast.lower_partial((2, 3), (0, 0), {1: 4})
    with pytest.raises(TypeError, match="uint8"):
        bcast.lower_partial((2,), (0,), {1: 4}, dtype="uint8")
    with pytest.raises(ValueError, match="form"):
        bcast.lower_partial((2,), (0,), {1: 4}, form="tosa")
    with pytest.raises(ValueError, match="identifier"):
        bcast.lower_partial((2,), (0,), {1: 4}, name="1x")
    with pytest.raises(ValueError, match="symbolic"):
        bcast.lower_partial(("n",), (0,), {1: 4})
