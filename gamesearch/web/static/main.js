// The gamesearch board page: plain JavaScript modules and SVG over the JSON API, no build
// step. Boards are drawn from the game's own description (rows, columns, each cell's
// symbol and the move a click on it plays, and any moves that are not cells) in the
// look its plugin declares, so a new game plugin needs no code here.
//
//   state.js     the page's state and small helpers
//   api.js       requests, and what a search's budget was
//   setup.js     the set-up form: game, options, searcher, who plays
//   looks.js     a game's declared look, read for drawing
//   board.js     the board, the move values, the status line
//   hexes.js     the coloured sides of a board of hexagons (the "hexes" look)
//   play.js      moves, the computer's moves, undo, analysis and hint
//   record.js    the game record and the link to a position
//   explorer.js  the search explorer's tree
//   panzoom.js   panning, zooming and fitting the tree

import { api } from "./api.js";
import { render } from "./board.js";
import { expandAll, explore, setStep } from "./explorer.js";
import { fitTree, setUpPanZoom, zoom } from "./panzoom.js";
import { analyse, backToGame, engineMove, hint, maybeEngineMove, newGame, undo } from "./play.js";
import { copyLink, goTo, loadRecord, recordKeys } from "./record.js";
import { fillGameOptions, fillSearcherOptions } from "./setup.js";
import { $, current, page, showError } from "./state.js";

function wireControls() {
  $("game-select").addEventListener("change", () => {
    fillGameOptions();
    newGame();
  });
  $("searcher-select").addEventListener("change", fillSearcherOptions);
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame().then((ok) => ok && maybeEngineMove());
  });
  $("new-game").addEventListener("click", () => newGame().then((ok) => ok && maybeEngineMove()));
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("engine-move").addEventListener("click", engineMove);
  $("show-values").addEventListener("change", () => {
    if ($("show-values").checked) analyse();
    else {
      page.analysis = null;
      render();
    }
  });
  $("preview-back").addEventListener("click", backToGame);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && page.preview !== null) backToGame();
  });
  $("record").addEventListener("keydown", recordKeys);
  $("record-start").addEventListener("click", () => goTo(0));
  $("record-back").addEventListener("click", () => goTo(page.record.index - 1));
  $("record-forward").addEventListener("click", () => goTo(page.record.index + 1));
  $("record-end").addEventListener("click", () => goTo(page.record.moves.length));
  $("copy-link").addEventListener("click", copyLink);
  $("explore").addEventListener("click", explore);
  $("step-first").addEventListener("click", () => setStep(1));
  $("step-back").addEventListener("click", () => setStep(page.tree.step - 1));
  $("step-next").addEventListener("click", () => setStep(page.tree.step + 1));
  $("step-all").addEventListener("click", () => setStep(page.tree.nodes.length));
  $("zoom-in").addEventListener("click", () => zoom(1.25));
  $("zoom-out").addEventListener("click", () => zoom(0.8));
  $("zoom-fit").addEventListener("click", () => page.tree && fitTree());
  $("expand-all").addEventListener("click", expandAll);
  setUpPanZoom();
  window.addEventListener("resize", () => current() && render());
}

async function start() {
  try {
    page.catalogue = await api("/api/games");
  } catch (error) {
    $("status").textContent = "The server did not answer.";
    showError(error);
    return;
  }
  const catalogue = page.catalogue;
  for (const name of Object.keys(catalogue.games)) $("game-select").append(new Option(name, name));
  for (const name of Object.keys(catalogue.searchers)) {
    const description = catalogue.searchers[name].description;
    $("searcher-select").append(new Option(`${name}: ${description}`, name));
  }
  if ("iterative" in catalogue.searchers) $("searcher-select").value = "iterative";
  const limits = catalogue.limits;
  $("engine-seconds").max = limits.seconds;
  $("limits-note").textContent =
    `This server stops every search after ${limits.max_nodes.toLocaleString("en")} nodes ` +
    `or ${limits.seconds} s, and draws trees of up to ${limits.tree_nodes.toLocaleString("en")} nodes.`;
  // A link names the game, its options, a position to start from, the moves played
  // and the move shown: /?game=connect4&moves=4,4,3&at=2. Without one, the simplest game.
  const params = new URLSearchParams(window.location.search);
  const linked = params.get("game");
  if (linked in catalogue.games) $("game-select").value = linked;
  else if (catalogue.default_game in catalogue.games) $("game-select").value = catalogue.default_game;
  fillSearcherOptions();
  fillGameOptions();
  for (const input of $("game-options").querySelectorAll("input, select")) {
    if (params.has(input.name)) input.value = params.get(input.name);
  }
  wireControls();
  page.loading = params.has("moves") || params.has("at");
  if (await newGame(params.get("position"))) {
    if (params.has("moves") || params.has("at")) await loadRecord(params);
    else maybeEngineMove({ opening: true });
  }
}

start();
