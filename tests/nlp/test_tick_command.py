"""`storyhost tick` through a real process: the exact contract scripts depend on."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CARD = "When I was in the Arctic recently..."
STORY = (
    "I was on a big expedition there as part of a research mission. It was ice-cold and we froze terribly. "
    "Snow lay everywhere and so we often rode the motor sled. We also saw polar bears and seals... "
    "We flew in from Canada and on the way back we were also in Russia. We were also in Alaska for a moment."
)
TERMS = {
    "Sabine": ["Snow", "cold", "Polar bear", "Igloo", "the"],
    "Stephan": ["Snow", "Greenland", "Polar bears", "Eskimo", "freeze", "froze"],
    "Melanie": ["Snow", "Seal", "Canada", "Ice", "sled", "Arctic"],
}


def tick(*args: str) -> subprocess.CompletedProcess:
    command = "import sys; from host.cli.tick import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", command, *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture
def files(tmp_path):
    terms = tmp_path / "terms.json"
    terms.write_text(json.dumps(TERMS), encoding="utf-8")
    story = tmp_path / "story.txt"
    story.write_text(STORY, encoding="utf-8")
    return terms, story


def entry(term, status, reason=None, evidence=None):
    return {"term": term, "status": status, "reason": reason, "evidence": evidence, "time": None}


def test_json_output_is_exactly_the_contract(files):
    terms, story = files
    done = tick("--card", CARD, "--terms", str(terms), "--transcript", str(story), "--json")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout) == {
        "players": {
            "Sabine": [
                entry("Snow", "ticked", evidence="Snow"),
                entry("cold", "not_heard"),
                entry("Polar bear", "ticked", evidence="polar bears"),
                entry("Igloo", "not_heard"),
                entry("the", "rejected", reason="pronoun"),
            ],
            "Stephan": [
                entry("Snow", "ticked", evidence="Snow"),
                entry("Greenland", "not_heard"),
                entry("Polar bears", "ticked", evidence="polar bears"),
                entry("Eskimo", "not_heard"),
                entry("freeze", "ticked", evidence="froze"),
                entry("froze", "rejected", reason="duplicate"),
            ],
            "Melanie": [
                entry("Snow", "ticked", evidence="Snow"),
                entry("Seal", "ticked", evidence="seals"),
                entry("Canada", "ticked", evidence="Canada"),
                entry("Ice", "not_heard"),
                entry("sled", "not_heard"),
                entry("Arctic", "rejected", reason="on_card"),
            ],
        },
        "stop": None,
    }
    assert done.stdout.count("\n") == 1


def test_stop_comes_after_every_tick_of_the_word_that_completed_a_fifth_term(tmp_path):
    """RULINGS: "wool" completes Sabine's fifth term; Melanie wrote it too and it ticks for her
    as well. The dog barks after Stop!: it counts for nobody."""
    terms = tmp_path / "terms.json"
    terms.write_text(
        json.dumps({"Sabine": ["farmer", "sheep", "field", "fence", "wool"], "Melanie": ["wool", "dog", "barn"]}),
        encoding="utf-8",
    )
    story = tmp_path / "story.txt"
    story.write_text("The farmer counted sheep in the field by the fence. He sheared the wool and a dog barked.")
    done = tick("--card", "Once upon a time...", "--terms", str(terms), "--transcript", str(story), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [e["status"] for e in result["players"]["Sabine"]] == ["ticked"] * 5
    assert result["players"]["Melanie"] == [
        entry("wool", "ticked", evidence="wool"),
        entry("dog", "heard_after_stop", evidence="dog"),
        entry("barn", "not_heard"),
    ]
    assert result["stop"] == {"players": ["Sabine"], "evidence": "wool", "time": None}
    lines = tick("--card", "Once upon a time...", "--terms", str(terms), "--transcript", str(story)).stdout
    assert 'Melanie: "dog" heard only after Stop!, "dog".' in lines
    assert lines.splitlines()[-1] == 'Stop! Sabine has all 5 terms ticked, on "wool".'


def test_readable_lines(files):
    terms, story = files
    done = tick("--card", CARD, "--terms", str(terms), "--transcript", str(story))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert len(lines) == 17
    assert lines[0] == 'Sabine: "Snow" ticked, heard "Snow".'
    assert lines[1] == 'Sabine: "cold" not heard.'
    assert lines[4] == (
        'Sabine: "the" refused, a pronoun. "the" is an article, and articles count as pronouns, '
        "which are not allowed. Write a noun, a verb or an adjective instead."
    )
    assert lines[16].startswith('Melanie: "Arctic" refused, on the card. "Arctic" is on the story card')  # words, not codes


def test_bad_input_exits_2_with_one_line(files, tmp_path):
    terms, story = files
    broken = tmp_path / "broken.json"
    broken.write_text('{"Ann": ["dog"', encoding="utf-8")
    shapeless = tmp_path / "shapeless.json"
    shapeless.write_text('["dog", "cat"]', encoding="utf-8")
    cases = [
        (["--card", "  ", "--terms", str(terms), "--transcript", str(story)], "card text is empty"),
        (
            ["--card", CARD, "--terms", str(tmp_path / "missing.json"), "--transcript", str(story)],
            f"the terms file {tmp_path / 'missing.json'}: cannot read the file",
        ),
        (
            ["--card", CARD, "--terms", str(terms), "--transcript", str(tmp_path / "missing.txt")],
            f"the transcript {tmp_path / 'missing.txt'}: cannot read the file",
        ),
        (["--card", CARD, "--terms", str(broken), "--transcript", str(story)], "not valid JSON"),
        (["--card", CARD, "--terms", str(shapeless), "--transcript", str(story)], "must map each player"),
        (["--card", CARD, "--terms", str(terms)], "--transcript --audio is required"),
        (
            ["--card", CARD, "--terms", str(terms), "--audio", str(tmp_path / "story.wav")],
            "there is no such file",
        ),
        (["--card", CARD, "--terms", str(terms), "--transcript", str(story), "--audio", "x.wav"], "not allowed with"),
    ]
    for args, says in cases:
        done = tick(*args)
        assert done.returncode == 2, args
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("storyhost tick: "), done.stderr
        assert says in done.stderr


def test_help(files):
    done = tick("--help")
    assert done.returncode == 0 and "usage: storyhost tick" in done.stdout


def test_a_spanish_story_is_judged_by_the_spanish_rulings(tmp_path):
    terms = tmp_path / "terms.json"
    terms.write_text(json.dumps({"Ana": ["dar", "oso polar", "perro", "rápidamente"], "Luis": ["oso", "ser", "levantar"]}),
                     encoding="utf-8")
    story = tmp_path / "story.txt"
    story.write_text("Vi un oso polar en la nieve. Me levanté temprano y le dije: dámelo. El perrito corría.",
                     encoding="utf-8")
    done = tick("--language", "es", "--card", "Cuando estuve en el Ártico...", "--terms", str(terms),
                "--transcript", str(story), "--json")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout) == {
        "players": {
            "Ana": [
                entry("dar", "ticked", evidence="dámelo"),  # a verb with its pronouns attached
                entry("oso polar", "ticked", evidence="oso polar"),
                entry("perro", "not_heard"),  # "perrito" is another word
                entry("rápidamente", "rejected", reason="adverb"),
            ],
            "Luis": [
                entry("oso", "not_heard"),  # a part of the compound "oso polar"
                entry("ser", "rejected", reason="have_be"),
                entry("levantar", "ticked", evidence="levanté"),
            ],
        },
        "stop": None,
    }


def test_a_language_storyhost_lacks_or_without_term_rules_is_refused_in_one_line(files):
    terms, story = files
    done = tick("--language", "fr", "--card", CARD, "--terms", str(terms), "--transcript", str(story))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("storyhost tick: storyhost does not speak 'fr'; it speaks en (English), es (español), "
                           "ca (català) and de (Deutsch).\n")
    done = tick("--language", "de", "--card", CARD, "--terms", str(terms), "--transcript", str(story))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("storyhost tick: Stories! wird auf en (English) oder es (español) gespielt: In keiner "
                           "anderen Sprache kennt storyhost die Regeln für erlaubte Wörter. Wähle eine mit --language.\n")


def test_a_spanish_story_is_judged_in_spanish_lines(tmp_path):
    terms = tmp_path / "terms.json"
    terms.write_text(json.dumps({"Ana": ["dar", "perro", "rápidamente"], "Luis": ["ser", "levantar", "oso polar",
                                                                                   "nieve", "dar", "ver"]}), encoding="utf-8")
    story = tmp_path / "story.txt"
    story.write_text("Vi un oso polar en la nieve. Me levanté temprano y le dije: dámelo.", encoding="utf-8")
    done = tick("--language", "es", "--card", "Cuando estuve en el Ártico...", "--terms", str(terms),
                "--transcript", str(story))
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[:3] == ['Ana: «dar» marcado, se oyó «dámelo».', 'Ana: «perro» no se oyó.',
                         'Ana: «rápidamente» rechazado, un adverbio. ' + lines[2].split("un adverbio. ")[1]]
    assert 'Luis: «levantar» marcado, se oyó «levanté».' in lines
    assert lines[-1] == "¡Alto! Luis tiene marcados sus 5 términos, con «dámelo»."  # the fifth, after "vi"
