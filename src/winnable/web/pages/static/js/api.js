// The JSON API the server offers (see /docs for its OpenAPI page). Every error comes
// back as an ApiError carrying the server's sentence for the player, in the page's
// language: every call names it (`?lang=`), which the server puts first.

import { t, locale } from "./i18n.js";

/** `path` with the page's language, so answers and errors come in it. */
export function withLang(path) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(locale)}`;
}

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.code = null;
    this.data = null;
  }
}

function detailText(detail, status) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
  return t("The server answered {status}.", { status });
}

export async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET" && body === undefined) body = {}; // every change is a JSON body
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(withLang(path), init);
  } catch {
    throw new ApiError(0, t("The server cannot be reached. Is it still running?"));
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, detailText(data && data.detail, response.status));
    error.code = (data && data.code) || null;
    error.data = data; // the whole body (a sign-in's proof-of-work challenge, `altcha`)
    throw error;
  }
  return data;
}

export const api = {
  catalog: () => call("GET", "/api/catalog"),
  create: (game, { deal = null, winnable = false, undo = null, think = null, grade = null } = {}) => {
    const body = { game };
    if (winnable) body.winnable = true;
    if (winnable && grade) body.grade = grade; // easy, medium, hard or expert (none: any)
    else if (deal !== null && deal !== undefined && deal !== "") body.deal = deal;
    if (undo) body.undo = undo;
    if (think) body.think = think; // Black Hole's timed play: seconds a move
    return call("POST", "/api/games", body);
  },
  get: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  move: (id, move, auto = false) => call("POST", `/api/games/${encodeURIComponent(id)}/moves`, auto ? { move, auto: true } : { move }),
  // State-changing calls always send a JSON body (the server's CSRF rule), {} if empty.
  undo: (id, auto = false) => call("POST", `/api/games/${encodeURIComponent(id)}/undo`, auto ? { auto: true } : {}),
  restart: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/restart`, {}),
  summaries: (ids) => call("POST", "/api/games/summaries", { ids: ids.slice(0, 100) }),
  hint: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/hint`),
  analysis: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/analysis`),
  positionAt: (id, at) => call("GET", `/api/games/${encodeURIComponent(id)}/position?at=${at}`),
  // Show me: the solver's winning line from the game's position after `at` moves (now by
  // default), frame by frame; take over plays its first moves as ordinary moves from `from`.
  solution: (id, at = null) => call("GET", `/api/games/${encodeURIComponent(id)}/solution${at === null ? "" : `?at=${at}`}`),
  takeOver: (id, from, moves) => call("POST", `/api/games/${encodeURIComponent(id)}/solution/play`, { from, moves }),
  redo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/redo`, {}),
};
