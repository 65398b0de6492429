// Sign-in's proof of work (ALTCHA v1): a name under guessing asks each sign-in to find the
// number n (0 to maxnumber) whose SHA-256 of `salt + n` is the challenge; WebCrypto
// hashes a batch of numbers at once. About a second on a phone (see the README).

const BATCH = 256;

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The solved payload of `challenge` (base64 of its JSON), or null if none is found. */
export async function solveAltcha(challenge) {
  const { algorithm, salt, maxnumber } = challenge;
  const encoder = new TextEncoder();
  for (let start = 0; start <= maxnumber; start += BATCH) {
    const numbers = [];
    for (let n = start; n < start + BATCH && n <= maxnumber; n += 1) numbers.push(n);
    const digests = await Promise.all(numbers.map((n) => crypto.subtle.digest(algorithm, encoder.encode(salt + n))));
    const found = digests.findIndex((digest) => hex(digest) === challenge.challenge);
    if (found >= 0) {
      const payload = { algorithm, challenge: challenge.challenge, number: numbers[found], salt, signature: challenge.signature };
      return btoa(JSON.stringify(payload));
    }
  }
  return null;
}
