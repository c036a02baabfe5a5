// The game record: the moves played, going back to one, the link to the position.

import { api, positionRequest } from "./api.js";
import { render } from "./board.js";
import { positionChanged } from "./play.js";
import { $, current, gameEntry, page, showError } from "./state.js";

// How many moves a row of the record holds: one per player in a game whose players take
// turns in order ("1.  A 4  B 0  C 8"), one in a game where a player may move again.
function movesPerRow(state) {
  const rules = gameEntry(state).rules;
  return rules.alternating && !rules.chance ? rules.players : 1;
}

export function renderRecord() {
  const record = page.record;
  const list = $("record");
  list.replaceChildren();
  const start = document.createElement("button");
  start.type = "button";
  start.className = "record-move";
  start.textContent = record.fromStart ? "Start" : "Given position";
  start.setAttribute("aria-label", "the position before the first move");
  start.addEventListener("click", () => goTo(0));
  start.classList.toggle("current", record.index === 0);
  list.append(start);
  const perRow = movesPerRow(record.states[0]);
  const table = document.createElement("div");
  table.className = "record-rows";
  table.style.setProperty("--per-row", String(perRow));
  record.moves.forEach((entry, index) => {
    if (index % perRow === 0) {
      const number = document.createElement("span");
      number.className = "record-number";
      number.textContent = `${index / perRow + 1}.`;
      table.append(number);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "record-move";
    button.dataset.ply = index + 1;
    button.textContent = `${entry.player} ${entry.move}`;
    button.setAttribute("aria-label", `move ${index + 1}: ${entry.player} plays ${entry.move}`);
    button.classList.toggle("current", record.index === index + 1);
    button.classList.toggle("later", record.index < index + 1);
    if (record.index === index + 1) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => goTo(index + 1));
    table.append(button);
  });
  list.append(table);
  $("record-start").disabled = $("record-back").disabled = record.index === 0;
  $("record-forward").disabled = $("record-end").disabled = record.index === record.moves.length;
  updateLink();
}

export function goTo(index) {
  const record = page.record;
  if (index < 0 || index > record.moves.length) return;
  page.generation += 1;
  page.busy = false;
  page.preview = null;
  record.index = index;
  showError(null);
  $("analysis").textContent = "";
  positionChanged();
}

// The link to this game: its options, the position it started from (when not the
// start), the moves played and, when earlier, the move shown.
function shareLink() {
  const record = page.record;
  const first = record.states[0];
  const params = new URLSearchParams();
  params.set("game", first.game);
  for (const [name, value] of Object.entries(first.options)) params.set(name, String(value));
  if (!record.fromStart) params.set("position", first.position);
  if (record.moves.length) params.set("moves", record.moves.map((entry) => entry.move).join(","));
  if (record.index < record.moves.length) params.set("at", String(record.index));
  return `${window.location.origin}${window.location.pathname}?${params}`;
}

function updateLink() {
  const link = shareLink();
  if (link !== window.location.href) window.history.replaceState(null, "", link);
  $("share-link").value = link;
}

export async function copyLink() {
  $("share-link").select();
  try {
    await navigator.clipboard.writeText($("share-link").value);
    $("copy-done").textContent = "Copied.";
  } catch (error) {
    $("copy-done").textContent = "Select the link and copy it.";
  }
}

// Replay the moves of a link (/?game=connect4&moves=4,4,3&at=2) from its first position.
export async function loadRecord(params) {
  page.loading = true;
  render();
  const moves = (params.get("moves") || "").split(",").filter((move) => move !== "");
  for (const [index, move] of moves.entries()) {
    const state = current();
    let next;
    try {
      next = await api("/api/play", positionRequest(state, { move }));
    } catch (error) {
      showError(`the link's move ${index + 1} (${move}) cannot be played: ${error.message}`);
      break;
    }
    page.record.states.push(next);
    page.record.moves.push({ move, player: state.to_move });
    page.record.index += 1;
  }
  const at = params.get("at");
  if (at !== null && /^\d+$/.test(at)) page.record.index = Math.min(Number(at), page.record.moves.length);
  page.loading = false;
  positionChanged();
}

export function recordKeys(event) {
  const index = page.record.index;
  const actions = {
    ArrowLeft: index - 1,
    ArrowUp: index - 1,
    ArrowRight: index + 1,
    ArrowDown: index + 1,
    Home: 0,
    End: page.record.moves.length,
  };
  if (!(event.key in actions)) return;
  event.preventDefault();
  goTo(actions[event.key]);
  $("record").focus();
}
