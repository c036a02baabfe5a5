// The set-up: the game and its options, the searcher and its options, who plays.

import { searcherName } from "./api.js";
import { render } from "./board.js";
import { maybeEngineMove } from "./play.js";
import { $, current, page, playerNames, SEATS } from "./state.js";

// One option as a form row: a menu for an option with choices, a number field for an
// integer, a text field otherwise.
function optionInput(container, option, prefix) {
  const id = `${prefix}-${option.name}`;
  const row = document.createElement("p");
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = option.name;
  let input;
  if (Array.isArray(option.choices) && option.choices.length) {
    input = document.createElement("select");
    for (const choice of option.choices) {
      input.append(new Option(String(choice), String(choice), false, String(choice) === String(option.default)));
    }
  } else {
    input = document.createElement("input");
    if (option.type === "int") {
      input.type = "number";
      if (option.minimum !== null && option.minimum !== undefined) input.min = option.minimum;
      if (option.maximum !== null && option.maximum !== undefined) input.max = option.maximum;
      input.value = option.default;
    } else {
      input.type = "text";
      input.placeholder = option.default === null ? "none" : String(option.default);
    }
  }
  input.id = id;
  input.name = option.name;
  input.setAttribute("aria-describedby", `${id}-help`);
  const help = document.createElement("span");
  help.id = `${id}-help`;
  help.className = "help";
  help.textContent = option.help;
  row.append(label, input, help);
  container.append(row);
}

function seatSelect(id, text, choices, chosen) {
  const row = document.createElement("p");
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = text;
  const select = document.createElement("select");
  select.id = id;
  for (const [value, words] of choices) select.append(new Option(words, value, false, value === chosen));
  select.addEventListener("change", () => {
    if (current() === undefined) return;
    render();
    maybeEngineMove();
  });
  row.append(label, select);
  $("players").append(row);
}

export function fillGameOptions() {
  const fieldset = $("game-options");
  fieldset.querySelectorAll("p").forEach((row) => row.remove());
  const game = page.catalogue.games[$("game-select").value];
  for (const option of game.options) optionInput(fieldset, option, "game-option");
  fieldset.hidden = game.options.length === 0;
  $("players").querySelectorAll("p").forEach((row) => row.remove());
  game.player_names.forEach((name, index) => {
    const text = `${name} (moves ${SEATS[index] || `number ${index + 1}`})`;
    const chosen = index === 0 ? "human" : "computer";
    seatSelect(`player-${index}`, text, [["human", "Human"], ["computer", "Computer"]], chosen);
  });
  if (game.rules.chance) {
    // the outcome of a roll of the die: drawn by the server, or entered from a real die
    const choices = [["computer", "Drawn by the computer"], ["human", "Entered by hand (a real die)"]];
    seatSelect("player-chance", "Chance (the die)", choices, "computer");
  }
  if (game.tables && game.tables.length) {
    choosePerfectPlay(fieldset, game.tables[0]);
    return;
  }
  // A searcher that cannot search this game (alpha-beta and a game of three players)
  // gives way to the game's own, else to the first that can.
  const usable = game.searchers || Object.keys(page.catalogue.searchers);
  if (!usable.includes($("searcher-select").value)) {
    const fallback = usable.includes(game.default_searcher) ? game.default_searcher : usable[0];
    if (fallback) {
      $("searcher-select").value = fallback;
      fillSearcherOptions();
    }
  }
}

// Perfect play: a server started with a solution table of this game answers every move's
// exact value from it at once, for the options the table was solved with. The page takes
// those options and that searcher, and shows the move values.
function choosePerfectPlay(fieldset, options) {
  for (const input of fieldset.querySelectorAll("input, select")) {
    if (input.name in options) input.value = String(options[input.name]);
  }
  $("searcher-select").value = "table";
  fillSearcherOptions();
  $("show-values").checked = true;
}

export function fillSearcherOptions() {
  const container = $("searcher-options");
  container.replaceChildren();
  const searcher = page.catalogue.searchers[searcherName()];
  for (const option of searcher.options) optionInput(container, option, "searcher-option");
}

// Whether the computer plays for `name` (a player's name, or "chance").
export function isComputer(name) {
  if (name === "chance") {
    const select = $("player-chance");
    return select === null || select.value === "computer";
  }
  const select = $(`player-${playerNames(current()).indexOf(name)}`);
  return select !== null && select.value === "computer";
}

export function isHumanTurn() {
  const state = current();
  return !state.is_over && !isComputer(state.to_move) && !page.busy && !page.loading && page.preview === null;
}
