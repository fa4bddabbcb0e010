"""A paper's LaTeX source (:mod:`checks.importer.tex`): ``\\input`` followed (a missing file
skipped, a cycle read once, too deep an error in one line), the main file of a folder, the
paper's macros expanded with their arguments, and the blocks numbered as LaTeX numbers
them — theorem counters shared or reset per section, equations per row or per display,
``\\nonumber``, ``\\numberwithin``, ``\\eqref`` resolved."""
from __future__ import annotations

import pytest

from checks.importer.document import Begin, Display, End, Heading, Text
from checks.importer.tex import (TexError, collect_macros, expand, main_file, read_tex,
                                 read_tex_file)


def _doc(body: str, preamble: str = ""):
    return read_tex("\\documentclass{article}\n" + preamble + "\n\\begin{document}\n" + body
                    + "\n\\end{document}\n", "test.tex")


# ---------------------------------------------------------------------------- files
def test_inputs_are_inlined_missing_ones_skipped_and_comments_dropped(tmp_path):
    (tmp_path / "main.tex").write_text("A \\input{sec/one} B \\include{two} C \\input{gone}\n"
                                       "% \\input{commented}\nD 50\\% done", encoding="utf-8")
    (tmp_path / "sec").mkdir()
    (tmp_path / "sec" / "one.tex").write_text("one % a comment\n", encoding="utf-8")
    (tmp_path / "two.tex").write_text("two", encoding="utf-8")
    (tmp_path / "commented.tex").write_text("never", encoding="utf-8")
    got = read_tex_file(tmp_path / "main.tex")
    assert got.split() == ["A", "one", "B", "two", "C", "D", "50\\%", "done"]


def test_a_cycle_of_inputs_is_read_once(tmp_path):
    (tmp_path / "a.tex").write_text("a \\input{b}", encoding="utf-8")
    (tmp_path / "b.tex").write_text("b \\input{a}", encoding="utf-8")
    assert read_tex_file(tmp_path / "a.tex").split() == ["a", "b", "a"]


def test_an_unreadable_file_is_one_line(tmp_path):
    with pytest.raises(TexError, match=r"^cannot read .*nothing\.tex: ") as exc:
        read_tex_file(tmp_path / "nothing.tex")
    assert "\n" not in str(exc.value)


def test_the_main_file_is_the_one_with_documentclass_and_a_document(tmp_path):
    (tmp_path / "a_macros.tex").write_text("\\newcommand{\\x}{y}", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "draft.tex").write_text("\\documentclass{article}", encoding="utf-8")
    (tmp_path / "z_main.tex").write_text("\\documentclass{article}\\begin{document}x"
                                         "\\end{document}", encoding="utf-8")
    assert main_file(tmp_path).name == "z_main.tex"


def test_a_lone_tex_file_is_the_main_file_and_none_is_an_error(tmp_path):
    (tmp_path / "only.tex").write_text("no class", encoding="utf-8")
    assert main_file(tmp_path).name == "only.tex"
    (tmp_path / "other.tex").write_text("no class either", encoding="utf-8")
    with pytest.raises(TexError, match=r"no \.tex file with \\documentclass$"):
        main_file(tmp_path)


# ---------------------------------------------------------------------------- macros
def test_macros_with_arguments_defaults_def_and_operators_are_expanded():
    src = ("\\newcommand{\\R}{\\mathbb{R}}\n\\newcommand{\\norm}[1]{\\|#1\\|}\n"
           "\\newcommand{\\E}[2][X]{\\mathbb{E}_{#1}[#2]}\n\\def\\half{\\frac{1}{2}}\n"
           "\\DeclareMathOperator{\\tr}{tr}\nbody")
    macros, theorems, rest = collect_macros(src)
    assert macros == {"R": (0, None, "\\mathbb{R}"), "norm": (1, None, "\\|#1\\|"),
                      "E": (2, "X", "\\mathbb{E}_{#1}[#2]"), "half": (0, None, "\\frac{1}{2}"),
                      "tr": (0, None, "\\text{tr}")}
    assert rest.split() == ["body"]                   # the definitions are removed
    assert expand("\\norm{x+\\half} \\in \\R", macros) == "\\|x+\\frac{1}{2}\\| \\in \\mathbb{R}"
    assert expand("\\E{f}", macros) == "\\mathbb{E}_{X}[f]"
    assert expand("\\E[Y]{f}", macros) == "\\mathbb{E}_{Y}[f]"
    assert expand("\\norm x", macros) == "\\|x\\|"     # an undelimited argument
    assert expand("\\tr A \\Rnot", macros) == "\\text{tr} A \\Rnot"   # a longer name stays


def test_a_control_word_does_not_merge_with_the_next_letter():
    macros = {"al": (0, None, "\\alpha")}
    assert expand("\\al x", macros) == "\\alpha x"
    macros = {"s": (0, None, "\\sigma")}
    assert expand("2\\s{}", macros) == "2\\sigma{}"


def test_a_recursive_macro_stops_after_the_rounds():
    got = expand("\\loop", {"loop": (0, None, "a\\loop")}, rounds=3)
    assert got == "aaa\\loop"


def test_newtheorem_declarations_are_read():
    _, theorems, rest = collect_macros("\\newtheorem{theorem}{Theorem}[section]\n"
                                       "\\newtheorem{lemma}[theorem]{Lemma}\n"
                                       "\\newtheorem{assum}{Assumption}\nbody")
    assert theorems == {"theorem": ("Theorem", None, "section"),
                        "lemma": ("Lemma", "theorem", None),
                        "assum": ("Assumption", None, None)}
    assert rest.split() == ["body"]


# ---------------------------------------------------------------------------- numbering
def _begins(doc):
    return [(b.env, b.number, b.title) for b in doc.blocks if isinstance(b, Begin)]


def test_a_shared_theorem_counter_numbers_as_latex_does():
    doc = _doc("\\begin{lemma}a\\end{lemma}\\begin{theorem}[Main]b\\end{theorem}"
               "\\begin{lemma}c\\end{lemma}",
               "\\newtheorem{lemma}{Lemma}\n\\newtheorem{theorem}[lemma]{Theorem}")
    assert _begins(doc) == [("lemma", "1", ""), ("theorem", "2", "Main"), ("lemma", "3", "")]
    assert doc.printed == [("lemma", "1"), ("theorem", "2"), ("lemma", "3")]


def test_a_counter_within_sections_resets_at_each_section():
    doc = _doc("\\section{One}\\begin{theorem}a\\end{theorem}\\begin{lemma}b\\end{lemma}"
               "\\section{Two}\\begin{lemma}c\\end{lemma}",
               "\\newtheorem{theorem}{Theorem}[section]\n\\newtheorem{lemma}[theorem]{Lemma}")
    assert [(e, n) for e, n, _ in _begins(doc)] == [("theorem", "1.1"), ("lemma", "1.2"),
                                                    ("lemma", "2.1")]
    assert [b.title for b in doc.blocks if isinstance(b, Heading)] == ["One", "Two"]


def test_undeclared_theorem_words_have_their_own_counters():
    doc = _doc("\\begin{lemma}a\\end{lemma}\\begin{theorem}b\\end{theorem}"
               "\\begin{lemma}c\\end{lemma}\\begin{remark*}d\\end{remark*}")
    assert [(e, n) for e, n, _ in _begins(doc)] == [("lemma", "1"), ("theorem", "1"),
                                                    ("lemma", "2"), ("remark", None)]


def test_equations_are_numbered_per_display_or_per_row():
    doc = _doc("\\begin{equation}a=b\\end{equation}"
               "\\begin{align}c&=d\\\\e&=f\\nonumber\\\\g&=h\\end{align}"
               "\\begin{equation*}i=j\\end{equation*}"
               "\\[k=l\\]"
               "\\begin{equation}\\label{eq:m}\\begin{split}m&=n\\\\&=o\\end{split}"
               "\\end{equation}"
               "See \\eqref{eq:m} and \\ref{eq:none}.")
    nums = [[r.number for r in b.rows] for b in doc.blocks if isinstance(b, Display)]
    assert nums == [["1"], ["2", None, "3"], [None], [None], [None, "4"]]
    text = [b.text for b in doc.blocks if isinstance(b, Text)]
    assert text == ["See 4 and eq:none."]


def test_equations_numbered_within_sections():
    doc = _doc("\\section{A}\\begin{equation}a=b\\end{equation}\\section{B}"
               "\\begin{equation}c=d\\end{equation}\\begin{equation}e=f\\end{equation}",
               "\\numberwithin{equation}{section}")
    nums = [b.numbers for b in doc.blocks if isinstance(b, Display)]
    assert nums == [["1.1"], ["2.1"], ["2.2"]]


def test_environments_proofs_and_the_title():
    doc = read_tex("\\documentclass{article}\\title{A  Title\n Here}\\begin{document}"
                   "\\begin{theorem}\\label{thm:a}Let $x>0$.\\end{theorem}"
                   "\\begin{proof}[Proof of Theorem \\ref{thm:a}]Clear.\\end{proof}"
                   "\\end{document}", "t.tex")
    assert doc.title == "A Title Here" and doc.fmt == "latex" and doc.source == "t.tex"
    kinds = [type(b).__name__ for b in doc.blocks]
    assert kinds == ["Begin", "Text", "End", "Begin", "Text", "End"]
    proof = doc.blocks[3]
    assert (proof.env, proof.title) == ("proof", "Proof of Theorem \\ref{thm:a}")
    assert doc.blocks[1].text == "Let $x>0$."
    assert isinstance(doc.blocks[2], End) and doc.blocks[2].env == "theorem"


def test_a_papers_own_environment_name_is_a_result_of_its_printed_kind():
    doc = _doc("\\begin{assum}[Smooth]f is smooth.\\end{assum}\\begin{thm}x\\end{thm}",
               "\\newtheorem{assum}{Assumption}\n\\newtheorem{thm}{Theorem}")
    assert _begins(doc) == [("assumption", "1", "Smooth"), ("theorem", "1", "")]
