// Interoperability of texto as an ESME with an SMSC texto did not write: a server made with
// npm's `smpp` (node-smpp) that records every PDU texto sends and answers as each test says.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import smpp from "smpp";
import { tempDir, startTexto, api, send, campaign, until } from "./texto-process.mjs";

// Keep each decoded PDU's bytes: node-smpp decodes short_message into `{udh, message}` (UDHI
// set) or `{message}` strings, which hides whether GSM 03.38 went packed or unpacked.
const fromBuffer = smpp.PDU.prototype.fromBuffer;
smpp.PDU.prototype.fromBuffer = function (buffer) {
  Object.defineProperty(this, "raw", { value: Buffer.from(buffer), enumerable: false });
  return fromBuffer.call(this, buffer);
};

/** The short_message octets of a submit_sm, read from its bytes (SMPP 3.4 §4.4.1). */
function shortMessage(pdu) {
  const raw = pdu.raw;
  let at = 16;
  const cstring = () => (at = raw.indexOf(0, at) + 1);
  cstring(); // service_type
  at += 2;
  cstring(); // source_addr
  at += 2;
  cstring(); // destination_addr
  at += 3; // esm_class, protocol_id, priority_flag
  cstring(); // schedule_delivery_time
  cstring(); // validity_period
  at += 4; // registered_delivery, replace_if_present_flag, data_coding, sm_default_msg_id
  const length = raw[at];
  return raw.subarray(at + 1, at + 1 + length);
}

// The SMSC: what texto sent, and how to answer its submits.
const binds = [];
const bound = new Set();
const unbinds = [];
const submits = [];
let refuseBinds = 1;
let nextId = 1;
/** destination → command_status list for its next submits (then ESME_ROK). */
const refusals = new Map();
const server = smpp.createServer((session) => {
  session.on("error", () => {});
  session.on("close", () => bound.delete(session));
  session.on("bind_transceiver", (pdu) => {
    const refused = refuseBinds-- > 0;
    binds.push({ system_id: pdu.system_id, password: pdu.password, interface_version: pdu.interface_version, refused });
    session.send(pdu.response({ command_status: refused ? smpp.ESME_RBINDFAIL : smpp.ESME_ROK, system_id: "node-smsc" }));
    if (!refused) bound.add(session);
  });
  session.on("submit_sm", (pdu) => {
    const status = refusals.get(pdu.destination_addr)?.shift() ?? smpp.ESME_ROK;
    const message_id = status === smpp.ESME_ROK ? `node-${nextId++}` : "";
    submits.push({ pdu, status, message_id, at: Date.now() });
    session.send(pdu.response({ command_status: status, message_id }));
  });
  session.on("enquire_link", (pdu) => session.send(pdu.response()));
  session.on("unbind", (pdu) => {
    unbinds.push(pdu);
    session.send(pdu.response());
  });
});

let texto;
let exitCode;
const dir = tempDir();

before(async () => {
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = server.address().port;
  texto = await startTexto(dir.db, ["--smsc", `smpp://texto:pw@127.0.0.1:${port}?binds=2&window=10`]);
  assert.ok(texto.token, "texto printed the demo token");
});

after(async () => {
  if (exitCode === undefined) await texto?.stop();
  for (const session of server.sessions) session.destroy();
  await new Promise((resolve) => server.close(resolve));
  dir.remove();
});

/** The accepted submits to `destination`, in order. */
const accepted = (destination) => submits.filter((s) => s.pdu.destination_addr === destination && s.status === smpp.ESME_ROK);

/** Sends a receipt for `id` on a bound session; resolves with texto's deliver_sm_resp. */
function receipt(id, stat, err, destination) {
  const session = [...bound][0];
  const text = `id:${id} sub:001 dlvrd:${stat === "DELIVRD" ? "001" : "000"} submit date:2601151200 done date:2601151201 stat:${stat} err:${err} text:Soldes`;
  return new Promise((resolve) =>
    session.deliver_sm({ source_addr: destination, source_addr_ton: 1, source_addr_npi: 1, destination_addr: "36180", esm_class: 0x04, data_coding: 0, short_message: Buffer.from(text, "ascii") }, resolve),
  );
}

/** Sends a campaign and waits until texto has stored every hand-over (status Sent). */
async function sendAndHandOver(numbers, text, options) {
  const answer = await send(texto, numbers, text, options);
  assert.equal(answer.status, 1, JSON.stringify(answer));
  const detail = await until(async () => {
    const c = await campaign(texto, answer.ticket);
    return c.status === "Sent" && c;
  }, 20_000, { what: `campaign ${answer.ticket} Sent` });
  return { ticket: answer.ticket, detail };
}

/** Protects the bind: credentials from the URL, SMPP 3.4, the number of binds, retry after a refusal. */
test("texto binds twice as transceiver with its credentials, and binds again after ESME_RBINDFAIL", async () => {
  await until(() => bound.size === 2, 10_000, { what: "two accepted binds" });
  assert.ok(binds.length >= 3, `binds seen: ${JSON.stringify(binds)}`);
  assert.equal(binds[0].refused, true);
  for (const bind of binds) {
    assert.deepEqual([bind.system_id, bind.password, bind.interface_version], ["texto", "pw", 0x34]);
  }
});

/** Protects concatenation: GSM 03.38 unpacked, one UDH reference, parts in order, addresses' TON/NPI. */
test("a 200-character GSM text from Shop goes as two concatenated submit_sm", async () => {
  const text = "Soldes d'hiver: -50% sur tout le magasin, ce week-end seulement! Venez nombreux (code: HIVER26). ".repeat(3).slice(0, 200);
  const number = "33612345601";
  const { ticket } = await sendAndHandOver([number], text, { sender: "Shop" });
  const parts = accepted(number);
  assert.equal(parts.length, 2);
  const refs = new Set();
  let joined = "";
  parts.forEach(({ pdu }, index) => {
    assert.equal(pdu.esm_class, 0x40);
    assert.equal(pdu.data_coding, 0);
    assert.equal(pdu.registered_delivery, 1);
    assert.deepEqual([pdu.source_addr, pdu.source_addr_ton, pdu.source_addr_npi], ["Shop", 5, 0]);
    assert.deepEqual([pdu.destination_addr, pdu.dest_addr_ton, pdu.dest_addr_npi], [number, 1, 1]);
    const bytes = shortMessage(pdu);
    assert.deepEqual([...bytes.subarray(0, 3)], [5, 0, 3], "UDH: length 5, IE concatenation 8-bit ref");
    assert.deepEqual([bytes[4], bytes[5]], [2, index + 1], "total 2, sequence");
    refs.add(bytes[3]);
    // node-smpp's view of the same header.
    assert.deepEqual([...pdu.short_message.udh[0]], [0, 3, bytes[3], 2, index + 1]);
    const payload = bytes.subarray(6);
    assert.ok(payload.every((b) => b < 0x80), "one septet per octet");
    joined += payload.toString("latin1"); // the text's characters have the same code in GSM 03.38 and ASCII
  });
  assert.equal(refs.size, 1, "both parts carry the same reference");
  assert.equal(joined, text);

  // Only the last part's id is tracked: a receipt for the first is ignored.
  const first = await receipt(parts[0].message_id, "UNDELIV", "002", number);
  assert.equal(first.command_status, 0);
  const last = await receipt(parts[1].message_id, "DELIVRD", "000", number);
  assert.equal(last.command_status, 0);
  const c = await campaign(texto, ticket); // answered only once stored: no waiting
  assert.deepEqual([c.delivered, c.error, c.pending], [1, 0, 0]);
});

/** Protects UCS-2: data_coding 8, big-endian octets, default sender digits as TON 1 NPI 1, TLV receipts. */
test("a Cyrillic text goes as UCS-2 from 36180, and a receipt by TLV counts", async () => {
  const number = "33612345602";
  const { ticket } = await sendAndHandOver([number], "Привет");
  const [{ pdu, message_id }] = accepted(number);
  assert.equal(pdu.data_coding, 8);
  assert.equal(pdu.esm_class, 0);
  assert.deepEqual([pdu.source_addr, pdu.source_addr_ton, pdu.source_addr_npi], ["36180", 1, 1]);
  assert.deepEqual(shortMessage(pdu), Buffer.from("Привет", "utf16le").swap16());
  assert.equal(pdu.short_message.message, "Привет");

  const resp = await new Promise((resolve) =>
    [...bound][0].deliver_sm({ source_addr: number, destination_addr: "36180", esm_class: 0x04, data_coding: 0, short_message: Buffer.alloc(0), receipted_message_id: message_id, message_state: 5 }, resolve),
  );
  assert.equal(resp.command_status, 0);
  const c = await campaign(texto, ticket);
  assert.deepEqual([c.delivered, c.error, c.pending], [0, 1, 0], "message_state UNDELIVERABLE is an error");
});

test("a reply in two parts numbered by SAR TLVs is stored once, whole; the part that came first waits unanswered for the other", async () => {
  const number = "33612345609";
  await sendAndHandOver([number], "Votre avis ?");
  const session = [...bound][0];
  const part = (seq, text) =>
    new Promise((resolve) =>
      session.deliver_sm({ source_addr: number, destination_addr: "36180", esm_class: 0, data_coding: 0, short_message: Buffer.from(text, "ascii"), sar_msg_ref_num: 4242, sar_total_segments: 2, sar_segment_seqnum: seq }, resolve),
    );
  let secondAnswered = false;
  const second = part(2, "le monde").then((resp) => ((secondAnswered = true), resp));
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(secondAnswered, false, "a part is answered only once its reply is whole and stored");
  const first = await part(1, "Bonjour ");
  assert.equal(first.command_status, 0);
  assert.equal((await second).command_status, 0);
  const replies = await until(async () => {
    const answer = await api(texto, "/messages/mo?date_start=2020-01-01&date_end=2099-12-31");
    const mine = (answer.replies ?? []).filter((r) => r.destination === number || r.from === number || JSON.stringify(r).includes(number));
    return mine.length > 0 ? mine : null;
  }, 5000, { what: "the reply stored" });
  assert.deepEqual(replies.map((r) => r.message), ["Bonjour le monde"]);
});

/** Protects the receipt reading: every stat and err maps to the counter docs/interface.md §6.3 gives it. */
test("receipts of every kind land in the campaign's counters", async () => {
  const cases = [
    ["33612345611", "DELIVRD", "000"],
    ["33612345612", "UNDELIV", "002"],
    ["33612345613", "EXPIRED", "000"],
    ["33612345614", "UNDELIV", "001"],
    ["33612345615", "REJECTD", "000"],
  ];
  const { ticket } = await sendAndHandOver(cases.map(([n]) => n), "Votre colis arrive demain");
  for (const [number, stat, err] of cases) {
    const [{ message_id }] = accepted(number);
    assert.equal((await receipt(message_id, stat, err, number)).command_status, 0);
  }
  const c = await campaign(texto, ticket);
  assert.deepEqual({ delivered: c.delivered, error: c.error, expired: c.expired, npai: c.npai, pending: c.pending }, { delivered: 1, error: 2, expired: 1, npai: 1, pending: 0 });
  const npai = await api(texto, "/npai?destination=33612345614");
  assert.deepEqual(npai.list.map((e) => e.destination), ["33612345614"]);
});

/** Protects flow control: ESME_RTHROTTLED is "later", never a failure. */
test("a submit answered ESME_RTHROTTLED is handed over again and ends delivered", async () => {
  const number = "33612345620";
  refusals.set(number, [smpp.ESME_RTHROTTLED]);
  const { ticket } = await sendAndHandOver([number], "Rappel: rendez-vous demain 10h");
  const tries = submits.filter((s) => s.pdu.destination_addr === number);
  assert.deepEqual(tries.map((s) => s.status), [smpp.ESME_RTHROTTLED, smpp.ESME_ROK]);
  console.log(`throttled submit tried again after ${tries[1].at - tries[0].at} ms`);
  assert.equal((await receipt(tries[1].message_id, "DELIVRD", "000", number)).command_status, 0);
  const c = await campaign(texto, ticket);
  assert.deepEqual([c.delivered, c.error, c.pending], [1, 0, 0]);
});

/** Protects refusals: unknown destination → NPAI list; bad sender and other errors → error; none retried. */
test("ESME_RINVDSTADR puts the number on the NPAI list; other refusals count as errors", async () => {
  refusals.set("33612345630", [smpp.ESME_RINVDSTADR]);
  refusals.set("33612345631", [smpp.ESME_RINVSRCADR]);
  refusals.set("33612345632", [smpp.ESME_RSYSERR]);
  const numbers = ["33612345630", "33612345631", "33612345632"];
  const { detail } = await sendAndHandOver(numbers, "Code de connexion: 482913");
  for (const number of numbers) assert.equal(submits.filter((s) => s.pdu.destination_addr === number).length, 1, `${number} submitted once`);
  assert.deepEqual([detail.npai, detail.error, detail.delivered, detail.pending], [1, 2, 0, 0]);
  const npai = await api(texto, "/npai");
  assert.ok(npai.list.some((e) => e.destination === "33612345630"), JSON.stringify(npai.list));
  assert.ok(!npai.list.some((e) => e.destination === "33612345631" || e.destination === "33612345632"));
});

/** Protects keep-alive from the SMSC side. */
test("texto answers the SMSC's enquire_link", async () => {
  for (const session of bound) {
    const resp = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no enquire_link_resp")), 5_000);
      session.enquire_link({}, (pdu) => (clearTimeout(timer), resolve(pdu)));
    });
    assert.equal(resp.command, "enquire_link_resp");
    assert.equal(resp.command_status, 0);
  }
});

/** Protects an SMSC-initiated unbind: texto answers unbind_resp, then binds again. */
test("when the SMSC unbinds, texto answers and binds again", async () => {
  const session = [...bound][0];
  const bindsBefore = binds.length;
  const resp = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no unbind_resp")), 5_000);
    session.unbind({}, (pdu) => (clearTimeout(timer), resolve(pdu)));
  });
  assert.equal(resp.command, "unbind_resp");
  session.close();
  await until(() => binds.length > bindsBefore && bound.size === 2, 10_000, { what: "a new bind" });
  assert.equal(binds.at(-1).refused, false);
});

/** Protects a clean shutdown: each bind is unbound before texto exits. */
test("on SIGTERM texto unbinds every bind and exits 0", async () => {
  exitCode = await texto.stop();
  assert.equal(exitCode, 0, texto.stderr());
  assert.equal(unbinds.length, 2);
});
