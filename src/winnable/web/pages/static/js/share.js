// The share action, one for every page that has something to share (a deal on the game
// page, a challenge on its page): the browser's own share sheet (the Web Share API)
// where it has one, else the link copied to the clipboard, else the link shown to copy
// by hand. Whatever happens is said in words (`tell`), which the page shows and
// announces (a role="status" box).
//
//   shareLink({ path: "/play/penguin?deal=7", title: "Penguin", text: "...", tell })

import { t } from "./i18n.js";

/** The full address of a path of this site, without the sharer's language (no ?lang=):
 * whoever opens it reads it in their own (their choice, their account's, else their
 * browser's), the deal or the challenge being the same for everyone. */
export function shareAddress(path) {
  const url = new URL(path, location.origin);
  url.searchParams.delete("lang");
  return url.href;
}

/** Share `path` (a path of this site): "shared", "copied", "shown" or "cancelled". */
export async function shareLink({ path, title, text, tell }) {
  const url = shareAddress(path);
  const data = { title, text, url };
  if (typeof navigator.share === "function" && (typeof navigator.canShare !== "function" || navigator.canShare(data))) {
    try {
      await navigator.share(data);
      tell(t("Shared."));
      return "shared";
    } catch (error) {
      if (error && error.name === "AbortError") return "cancelled"; // the player closed the sheet
      // Refused (no user gesture, a policy): copy instead.
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    tell(t("Link copied: paste it to a friend."), url);
    return "copied";
  } catch {
    tell(t("Copy this link to share it:"), url);
    return "shown";
  }
}

/** A status box for a page's share action: the sentence, then the link, announced politely. */
export function statusTeller(node) {
  return (sentence, url) => {
    node.hidden = false;
    node.replaceChildren(sentence);
    if (url) {
      const field = document.createElement("input");
      field.type = "text";
      field.readOnly = true;
      field.value = url;
      field.className = "share-url";
      field.setAttribute("aria-label", t("Link to share"));
      field.addEventListener("focus", () => field.select());
      node.append(" ", field);
    }
  };
}
