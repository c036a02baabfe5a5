// The JSON API: requests for positions and searches, and what a search's budget was.

import { $, page, SEARCHER_NAMES } from "./state.js";

export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || `request failed with status ${response.status}`);
    error.type = data.type;
    throw error;
  }
  return data;
}

export function positionRequest(state, extra) {
  return { game: state.game, options: state.options, position: state.position, ...extra };
}

export function searcherName() {
  return $("searcher-select").value;
}

export function searcherHas(option) {
  return page.catalogue.searchers[searcherName()].options.some((o) => o.name === option);
}

// Iterative deepening and MCTS answer with what they have when a budget runs out.
function answersWithinBudget() {
  return page.catalogue.searchers[searcherName()].answers_within_budget === true;
}

// The set-up's searcher options, read from its inputs.
export function readInputs(container) {
  const values = {};
  for (const input of container.querySelectorAll("input, select")) {
    if (input.value.trim() !== "") values[input.name] = input.value.trim();
  }
  return values;
}

// The set-up's searcher and options. For a move or an analysis, a searcher that takes
// a time budget and was given no budget gets the computer's time per move; for the
// explorer's tree, iterative deepening stops before the tree outgrows what the server draws.
export function searchRequest(state, purpose) {
  const options = readInputs($("searcher-options"));
  const budgets = ["seconds", "simulations", "max_nodes"];
  if (purpose !== "tree" && answersWithinBudget() && !budgets.some((name) => name in options)) {
    const seconds = Number($("engine-seconds").value);
    if (seconds > 0) options.seconds = String(Math.min(seconds, page.catalogue.limits.seconds));
  }
  if (purpose === "tree" && answersWithinBudget() && searcherHas("depth") && !("max_nodes" in options)) {
    options.max_nodes = String(page.catalogue.limits.tree_nodes);
  }
  return positionRequest(state, { searcher: searcherName(), searcher_options: options });
}

// The budget a request gave its search, in words: "within 1 s", "up to 2,000 nodes"
// (and its depth limit, unless `depth` is false).
export function budgetWords(request, { depth = true } = {}) {
  const options = request.searcher_options || {};
  const parts = [];
  if (depth && "depth" in options) parts.push(`to depth ${options.depth}`);
  if ("seconds" in options) parts.push(`within ${Number(options.seconds)} s`);
  if ("max_nodes" in options) parts.push(`up to ${Number(options.max_nodes).toLocaleString("en")} nodes`);
  if ("simulations" in options) parts.push(`${Number(options.simulations).toLocaleString("en")} simulations`);
  return parts.join(", ");
}

// What search gave an answer, in words: "Iterative deepening within 1 s, searching to
// depth 8 (an estimate)".
export function searchWords(searcher, request, depth, exact) {
  const name = SEARCHER_NAMES[searcher] || searcher;
  const budget = budgetWords(request, { depth: false });
  const reached = depth ? `, searching to depth ${depth}` : "";
  return `${name}${budget ? ` ${budget}` : ""}${reached} (${exact ? "exact" : "an estimate"})`;
}
