// The issue-3 workload of the filter benches: a send request of 1,000,000 recipients (5% repeats,
// 1% national numbers, the rest French mobiles) and an account with 10,000 blacklisted and
// 10,000 NPAI numbers. `core` is a build of the npm package (it tells which numbers are valid).
const RECIPIENTS = 1_000_000;

// xorshift64*, as in core/benches/workload.rs: the same kind of numbers, deterministic.
function numbers() {
  let state = 0x7e570001n;
  const random = () => {
    state ^= state >> 12n;
    state ^= (state << 25n) & 0xffffffffffffffffn;
    state ^= state >> 27n;
    return Number(((state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn) >> 11n);
  };
  const numbers = [];
  while (numbers.length < RECIPIENTS) {
    const roll = random() % 100;
    if (roll < 5 && numbers.length > 0) numbers.push(numbers[random() % numbers.length]);
    else if (roll < 6) numbers.push(`0${600000000 + (random() % 100000000)}`);
    else numbers.push(`336${String(random() % 100000000).padStart(8, "0")}`);
  }
  return numbers;
}

/** The request's body, the account's filter context, the instant, and the numbers. */
export function workload(core) {
  const recipients = numbers();
  const isValid = (n) => { try { core.normalizeNumber(n); return true; } catch { return false; } };
  const valid = recipients.slice(0, 800_000).filter(isValid);
  const blacklist = [];
  const npai = [];
  for (let i = 0; i < 20000; i++) (i % 2 ? npai : blacklist).push(valid[(i * 37) % valid.length]);
  const body = JSON.stringify({
    sms: {
      message: { text: "Soldes d'hiver : -30% sur tout le magasin ce week-end !", pushtype: "alert", sender: "Boutique" },
      recipients: { gsm: recipients.map((value) => ({ value })) },
    },
  });
  return { body, context: { balance: 2000000, blacklist, npai }, now: new Date("2026-11-21T10:00:00Z"), blacklist, npai };
}
