"""A Spanish game's pages speak Spanish: the join page, a player's page, the table page (as served
and as companion.js keeps it live), an old link's page and the server's refusals carry lang="es"
and the companion's sentences from the catalog, with Spanish plural forms ("1 voto", "2 votos"),
and axe-core finds nothing on them. No English word is left in what the companion writes itself
(the games' own turn texts are their adapters'); what the laptop prints of the phones is Spanish."""
from __future__ import annotations

import html
import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from games.language import speaking
from host.companion.pages import table_page
from host.companion.screens import worded
from host.storage.catalogs import translations
from tests.host.companion.browser import Host, Pages, axe_violations
from tests.host.companion.test_dixit_phones import raw_message
from tests.host.companion.test_pages_without_javascript import same_when_loaded_anew

PLAYERS = ["Ana", "Bo", "Cy", "Di"]
#: English words that no sentence of the companion's may leave in a Spanish page
ENGLISH = re.compile(r"\b(the|your|is|and|of|to|for|card|cards|votes?|page|game|players?|points|scores|hand|join|connected|now)\b",
                     re.IGNORECASE)
#: what the companion writes on a player's or the table page itself (the rest is the game's)
OWN = ("title", "h1", "header p", "#now-heading", "#hand-heading", "#mine-heading", "#replies-heading", "#scores-heading",
       "#announcements-heading", "#scores thead", "#connection", "main section p a", "footer p a", "#game .number",
       "#game .votes")


def own_text(pages: Pages, name: str) -> str:
    driver = pages.show(name)
    texts = [str(driver.title)] + [element.text for selector in OWN[1:] for element in driver.find_elements(By.CSS_SELECTOR, selector)]
    return "\n".join(texts)


def language(driver: WebDriver) -> str:
    return str(driver.find_element(By.TAG_NAME, "html").get_attribute("lang"))


def served(url: str) -> tuple[int, str]:
    """A page's status and text, errors included."""
    try:
        with urllib.request.urlopen(url, timeout=10) as page:
            return page.status, html.unescape(page.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        return error.code, html.unescape(error.read().decode("utf-8"))


@pytest.mark.slow
def test_a_spanish_game_s_pages(browser: WebDriver, tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "dixit", "--language", "es", "--players", *PLAYERS, "--seed", "1", language="es")
    try:
        host.wait_for("Fin del código QR.")
        printed = host.printed()
        assert "Los móviles se unen en http://" in printed and "con el código de sala" in printed
        assert "Se sirve en " in printed and "Sigue el código QR de http://" in printed

        pages = Pages(browser, host.base, host.code, language="es")
        join = pages.show("Ana")
        join.get(host.base + "/")
        assert language(join) == "es" and join.title == "Unirse: Dixit, partida 1"
        assert "Código de sala (4 cifras)" in pages.text("Ana") and "¿Quién eres?" in pages.text("Ana")
        join.find_element(By.ID, "code").send_keys("0000" if host.code != "0000" else "1111")
        join.find_element(By.XPATH, "//button[normalize-space()='Soy Ana']").click()
        pages.wait_text("Ana", "Ese no es el código de sala de esta partida")
        assert axe_violations(join) == []
        assert not ENGLISH.search(pages.text("Ana").replace("Dixit", "")), pages.text("Ana")

        for player in PLAYERS:
            pages.join(player)
        pages.table()
        table = pages.show("table")
        assert language(table) == "es" and table.title == "Mesa: Dixit, partida 1"
        for heading in ("Dixit, partida 1: la mesa", "Puntuaciones", "Jugador Puntos", "Anuncios", "Conectado con el anfitrión."):
            assert heading in pages.text("table")
        ana = pages.show("Ana")
        assert language(ana) == "es" and ana.title == "Ana: Dixit, partida 1"
        for heading in ("Página privada de Ana", "Dixit, partida 1. Solo Ana debe mirar esta página.", "Ahora", "Solo para ti",
                        "Mensajes para ti", "Ver la partida tal como está ahora"):
            assert heading in pages.text("Ana")
        assert raw_message(pages.show("Bo"), "not json") == "Rechazado: ese mensaje no es JSON, así que no se ha hecho nada."

        pages.press("Ana", "storyteller")
        pages.send("Ana", "clue", "Dos iguales")
        pages.press("Ana", "shown")
        pages.press("Bo", "vote", "4")
        pages.press("Cy", "vote", "4")
        pages.press("Di", "vote", "3")  # the last vote: the table shows them all
        pages.wait_text("table", "Carta 4 2 votos: Bo y Cy")
        pages.wait_text("table", "Carta 3 1 voto: Di")
        pages.wait_text("table", "Carta 1 ningún voto")
        same_when_loaded_anew(pages, "table", "table, loaded anew", host.base + "/table", ("#game", "#scores"))
        for name in ("Ana", "Bo", "table", "table, loaded anew"):
            assert axe_violations(pages.show(name)) == [], name
            assert not ENGLISH.search(own_text(pages, name).replace("Dixit", "")), own_text(pages, name)

        status, gone = served(host.base + "/p/" + "x" * 32)
        assert status == 403 and '<html lang="es">' in gone
        assert "Este enlace ya no funciona" in gone and "Abrir la página para unirse" in gone
    finally:
        host.close()


@pytest.mark.parametrize(("language", "unit", "said"), [("en", "ticked", "12 seconds left Sabine 2 of 5 ticked"),
                                                         ("es", "marcados", "Segundos restantes: 12 Sabine 2 de 5 marcados")])
def test_the_timer_and_a_count_in_the_game_s_language(language: str, unit: str, said: str) -> None:
    """The timer's sentence keeps its number apart for the script to count down, in any word
    order; a meter's count is worded around its unit (the game's adapter words the unit)."""
    table = {"heading": "", "now": "", "big": "", "big_label": "", "timer_of": 60, "meters_label": "",
             "meters": [{"name": "Sabine", "count": 2, "of": 5, "unit": unit, "note": ""}], "grid": None, "cards": [],
             "cards_label": "", "lines": []}
    with speaking(translations(language)):
        page = table_page("Stories!", language, {"table": worded(table), "scores": [], "timer_left": 12})
    shown = " ".join(re.sub(r"<[^>]+>", " ", page.split('<section class="scoreboard"')[0].split("<main>")[1]).split())
    assert shown == said
    assert f'<html lang="{language}">' in page
    words = json.loads(page.split('<script id="words" type="application/json">')[1].split("</script>")[0])
    assert "".join(words["seconds_left"]) == said.split(" Sabine")[0].replace("12", "")
