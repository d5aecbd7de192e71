"""What a household sees on the page, counted (issue 44): every card, every button a card offers,
every ring, read in one script so that a page re-rendering meanwhile cannot mix two moments.

Plain WebDriver (execute_script) and DOM calls only, so it reads alike in every engine. A part
counts as shown when neither it nor an ancestor is `hidden` (the page hides with the attribute).
"""

from harness import Browser

CARDS = """
const shown = (e) => e !== null && e.closest("[hidden]") === null;
const words = (e) => e.textContent.replace(/\\s+/g, " ").trim();
return [...document.querySelectorAll("#timers li")].map((row) => {
  const field = (name) => row.querySelector('[data-field="' + name + '"]');
  const tomato = field("tomato");
  return {
    label: row.dataset.label, node: row.dataset.node, state: row.dataset.state, kind: row.dataset.kind,
    ringing: row.classList.contains("ringing"),
    clock: [...row.querySelectorAll(".clock > *")].filter(shown).map(words).join(" "),
    buttons: [...row.querySelectorAll("button")].filter(shown).map(words),
    tomato: shown(tomato), spinning: tomato !== null && tomato.classList.contains("spin"),
    warning: shown(field("warning")) ? words(field("warning")) : null,
  };
});
"""

RINGS = """
const shown = (e) => e !== null && e.closest("[hidden]") === null;
const words = (e) => e.textContent.replace(/\\s+/g, " ").trim();
const screens = [...document.querySelectorAll("section.ringing, #ringing")].filter(shown);
return {
  screens: screens.length,
  names: screens.map((s) => words(s.querySelector("#ring-names"))),
  buttons: screens.flatMap((s) => [...s.querySelectorAll("button")].filter(shown).map(words)),
  cards: [...document.querySelectorAll("#timers li.ringing")].length,
  audio: document.body.dataset.audio || null,
};
"""


def cards(browser):
    """The cards in the timers list, in order: one dict each (label, node, state, kind, ringing,
    clock: its shown words such as "rings again in 9:58", buttons: the shown buttons' words,
    tomato: whether the tomato shows, spinning, warning: its words or None)."""
    return browser.driver.execute_script(CARDS)


def card(browser, label):
    """The one card of `label`; AssertionError when there is none or more than one."""
    found = [c for c in cards(browser) if c["label"] == label]
    if len(found) != 1:
        raise AssertionError("%d cards of %r: %r" % (len(found), label, cards(browser)))
    return found[0]


def rings(browser):
    """The ringing screens shown (screens; 0 or 1), their names and shown buttons' words, the
    cards marked ringing, and the page's `data-audio`."""
    return browser.driver.execute_script(RINGS)


def shown_count(browser, css):
    """How many elements matching `css` are shown (none of them or their ancestors `hidden`)."""
    return browser.driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter((e) => e.closest('[hidden]') === null).length",
        css)


def browser_for(test, **options):
    """A Browser in `test`'s engine (`test.engine`, which run.py gives each copy of a test),
    closed at the test's end."""
    browser = Browser(test.engine, **options)
    test.addCleanup(browser.close)
    return browser
