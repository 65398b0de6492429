// A challenge's page (/challenge/{id}): its game and settings, who made it, its
// leaderboard (ranked like the Daily's), the way to play it (the signed-in player's one
// ranked attempt, or unranked: a guest, its creator, a second time) and to share it.

import { call, ApiError } from "./api.js";
import { clock, el } from "./dom.js";
import { formatDate, localHref, t, tn } from "./i18n.js";
import { notRankedText, resultText } from "./players-api.js";
import { showRankingRule } from "./ranking-rule.js";
import { shareLink, statusTeller } from "./share.js";

const $ = (id) => document.getElementById(id);
const token = document.body.dataset.challenge || decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const UNDO_NAMES = () => ({ unlimited: t("unlimited undo"), one: t("one undo"), none: t("no undo") });
const tell = statusTeller($("challenge-status"));
let challenge = null;

function outcome(entry) {
  if (entry.status === "won") return entry.speed ? t("{time} (speed {speed})", { time: clock(entry.seconds || 0), speed: entry.speed }) : clock(entry.seconds || 0);
  if (entry.partial !== null && entry.partial !== undefined) return t("{n} of 52 home", { n: entry.partial });
  return tn("{n} card left", "{n} cards left", entry.cards_left, { n: entry.cards_left });
}

function row(entry) {
  return el(
    "tr",
    { class: entry.you ? "you" : null, "aria-current": entry.you ? "true" : null },
    el("td", { class: "num" }, String(entry.rank)),
    el("td", {}, entry.player === null ? el("span", { class: "muted" }, t("(deleted account)")) : entry.player, entry.you ? el("span", { class: "badge you-badge" }, t("you")) : null),
    el("td", {}, el("span", { class: `badge ${entry.status === "won" ? "won" : entry.status === "lost" ? "lost" : ""}` }, resultText(entry.status))),
    el("td", { class: "num" }, outcome(entry)),
    el("td", { class: "num" }, String(entry.moves)),
    el("td", { class: "num" }, String(entry.undos)),
  );
}

function board(found) {
  const box = $("leaderboard");
  if (!found.entries.length) {
    box.replaceChildren(el("p", { class: "muted", id: "board-summary" }, t("Nobody has played this challenge yet.")));
    return;
  }
  const summary = [tn("{n} player", "{n} players", found.players, { n: found.players }), found.your_rank ? t("Your rank: {rank}", { rank: found.your_rank }) : null].filter(Boolean);
  box.replaceChildren(
    el("p", { class: "muted", id: "board-summary" }, summary.join(" \u00b7 ")),
    el(
      "div",
      { class: "board-scroll", tabindex: "0", role: "region", "aria-label": t("Leaderboard") },
      el(
        "table",
        { class: "board", id: "board-table" },
        el("caption", { class: "visually-hidden" }, t("Leaderboard")),
        el("thead", {}, el("tr", {}, ...[t("Rank"), t("Player"), t("Result"), t("Time or cards"), t("Moves"), t("Undos")].map((text) => el("th", { scope: "col" }, text)))),
        el("tbody", {}, ...found.entries.map(row)),
      ),
    ),
  );
}

async function play(ranked) {
  try {
    const state = await call("POST", `/api/challenges/${encodeURIComponent(token)}/play`, ranked ? {} : { ranked: false });
    location.href = localHref(`/play/${encodeURIComponent(state.game)}?id=${encodeURIComponent(state.id)}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    tell(error.detail);
  }
}

function controls(found) {
  const playButton = $("challenge-play");
  const practice = $("challenge-practice");
  const signIn = $("challenge-sign-in");
  const note = $("challenge-note");
  const attempt = found.your_attempt;
  playButton.hidden = false;
  practice.hidden = true;
  signIn.hidden = true;
  note.hidden = true;
  if (!found.signed_in) {
    playButton.textContent = t("Play as a guest (not ranked)");
    playButton.onclick = () => play(false);
    signIn.hidden = false;
    signIn.href = localHref(`/account?next=${encodeURIComponent(localHref(`/challenge/${token}`))}`);
    note.hidden = false;
    note.textContent = t("Guests may play this challenge, unranked. Sign in to be ranked on its leaderboard.");
  } else if (found.yours) {
    playButton.textContent = t("Play it unranked");
    playButton.onclick = () => play(false);
    note.hidden = false;
    note.textContent = t("You made this challenge from your own game of this deal: you play it unranked.");
  } else if (attempt && attempt.status === "playing") {
    playButton.textContent = t("Resume your ranked attempt");
    playButton.onclick = () => play(true);
  } else if (attempt && attempt.rank === null) {
    playButton.textContent = t("Play it again, unranked");
    playButton.onclick = () => play(false);
    note.hidden = false;
    note.textContent = notRankedText(attempt.not_ranked);
  } else if (attempt) {
    playButton.textContent = t("Play it again, unranked");
    playButton.onclick = () => play(false);
    note.hidden = false;
    note.textContent = t("You have played your ranked attempt: rank {rank}.", { rank: attempt.rank });
  } else if (!found.open) {
    playButton.textContent = t("Play it unranked");
    playButton.onclick = () => play(false);
  } else {
    playButton.textContent = t("Play your ranked attempt");
    playButton.onclick = () => play(true);
    practice.hidden = false;
  }
}

async function main() {
  try {
    challenge = await call("GET", `/api/challenges/${encodeURIComponent(token)}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    $("challenge-title").textContent = t("No such challenge");
    $("leaderboard").replaceChildren(el("p", { class: "form-error" }, error.detail));
    document.body.dataset.ready = "1";
    return;
  }
  const heading = t("A {game} challenge", { game: challenge.title });
  document.title = `${heading} \u00b7 Winnable`;
  $("challenge-title").textContent = challenge.creator
    ? t("{game}: a challenge from {name}", { game: challenge.title, name: challenge.creator })
    : t("A {game} challenge", { game: challenge.title });
  const settings = [UNDO_NAMES()[challenge.undo] || challenge.undo];
  if (challenge.think_seconds) settings.push(t("{n} s a move", { n: challenge.think_seconds }));
  if (challenge.deal !== null) settings.push(t("Deal #{n}", { n: challenge.deal }));
  if (challenge.created_at) settings.push(t("made {date}", { date: formatDate(challenge.created_at) }));
  $("challenge-settings").textContent = settings.join(" \u00b7 ");
  const when = formatDate(challenge.closes_at, { dateStyle: "medium", timeStyle: "short" });
  $("challenge-deadline").textContent = challenge.open
    ? t("Open until {date}. Until then no game of these cards gets hints or analyses, for anyone: not its creator, not guests, not unranked copies.", { date: when })
    : t("Closed on {date}: its results are final, and its cards are an ordinary deal again (hints allowed).", { date: when });
  controls(challenge);
  showRankingRule($("ranking-rule"), challenge.game).catch(console.error);
  const shareButton = $("challenge-share");
  shareButton.hidden = false;
  shareButton.addEventListener("click", () =>
    shareLink({
      path: `/challenge/${token}`,
      title: t("A {game} challenge", { game: challenge.title }),
      text: t("Can you beat me at this {game} deal? One ranked attempt.", { game: challenge.title }),
      tell,
    }).catch(console.error),
  );
  $("challenge-practice").addEventListener("click", () => play(false));
  board(challenge);
  document.body.dataset.ready = "1";
}

main();
