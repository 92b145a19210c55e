// Interoperability: `texto smsc-simulator` driven by an ESME texto did not write (npm's `smpp`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import smpp from "smpp";

const bin = process.env.TEXTO_BIN;
let child;
let smppUrl;
let httpUrl;

before(async () => {
  if (!bin) throw new Error("TEXTO_BIN must be set (scripts/test sets it)");
  child = spawn(bin, ["smsc-simulator", "--smpp-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--dlr-delay-ms", "50"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let seen = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start: ${seen}`)), 20_000);
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = seen.match(/SMPP on (\S+), HTTP on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        smppUrl = `smpp://${match[1]}`;
        httpUrl = match[2];
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`the simulator exited with ${code}: ${seen}`)));
  });
});

after(async () => {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
});

/** Connects and binds as a transceiver; resolves with the session and the bind status. */
function bind(password) {
  return new Promise((resolve, reject) => {
    const session = smpp.connect({ url: smppUrl });
    session.on("error", reject);
    session.bind_transceiver({ system_id: "texto", password }, (pdu) => resolve({ session, status: pdu.command_status }));
  });
}

function call(session, command, fields) {
  return new Promise((resolve) => session[command](fields, resolve));
}

/** The next `count` deliver_sm, each answered. */
function deliveries(session, count) {
  return new Promise((resolve, reject) => {
    const seen = [];
    const timer = setTimeout(() => reject(new Error(`only ${seen.length} deliver_sm`)), 5_000);
    const listener = (pdu) => {
      session.send(pdu.response());
      seen.push(pdu);
      if (seen.length === count) {
        clearTimeout(timer);
        session.removeListener("deliver_sm", listener);
        resolve(seen);
      }
    };
    session.on("deliver_sm", listener);
  });
}

const text = (pdu) => (typeof pdu.short_message === "string" ? pdu.short_message : pdu.short_message.message);

test("a bind with other credentials gets ESME_RBINDFAIL", async () => {
  const { session, status } = await bind("wrong");
  assert.equal(status, smpp.ESME_RBINDFAIL);
  session.close();
});

test("submits get message ids and receipts by destination suffix", async () => {
  const { session, status } = await bind("secret");
  assert.equal(status, smpp.ESME_ROK);
  const link = await call(session, "enquire_link", {});
  assert.equal(link.command_status, 0);

  const cases = [
    ["33612345678", "DELIVRD err:000"],
    ["33612345600", "UNDELIV err:001"],
    ["33612345699", "UNDELIV err:000"],
    ["33612345698", "EXPIRED"],
    ["33612345697", "REJECTD"],
  ];
  for (const [destination, expected] of cases) {
    const receipts = deliveries(session, 1);
    const resp = await call(session, "submit_sm", { source_addr: "36180", destination_addr: destination, registered_delivery: 1, short_message: "Bonjour" });
    assert.equal(resp.command_status, 0);
    assert.ok(resp.message_id);
    const [receipt] = await receipts;
    assert.equal(receipt.esm_class & 0x04, 0x04);
    assert.equal(receipt.receipted_message_id, resp.message_id);
    assert.match(text(receipt), new RegExp(`^id:${resp.message_id} sub:001 dlvrd:\\d{3} submit date:\\d{10} done date:\\d{10} stat:${expected}`));
  }

  // Two UCS-2 parts with a UDH, as node-smpp sends them.
  const receipts = deliveries(session, 2);
  const ids = [];
  for (const [seq, part] of [[1, "Привет "], [2, "мир"]]) {
    const resp = await call(session, "submit_sm", {
      destination_addr: "33698765432",
      esm_class: 0x40,
      registered_delivery: 1,
      short_message: { udh: Buffer.from([5, 0, 3, 9, 2, seq]), message: part },
    });
    ids.push(resp.message_id);
  }
  const receipted = (await receipts).map((pdu) => pdu.receipted_message_id).sort();
  assert.deepEqual(receipted, [...ids].sort());
  const listed = await (await fetch(`${httpUrl}/messages?destination=33698765432`)).json();
  assert.equal(listed.messages.length, 1);
  assert.equal(listed.messages[0].message_id, ids[0]);
  assert.equal(listed.messages[0].data_coding, 8);
  assert.equal(listed.messages[0].parts, 2);
  assert.equal(listed.messages[0].text, "Привет мир");

  const replies = deliveries(session, 1);
  const mo = await fetch(`${httpUrl}/mo`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ from: "33612345678", text: "STOP" }) });
  assert.equal(mo.status, 200);
  const [reply] = await replies;
  assert.equal(reply.source_addr, "33612345678");
  assert.equal(reply.destination_addr, "36180");
  assert.equal(text(reply), "STOP");

  const unbound = await call(session, "unbind", {});
  assert.equal(unbound.command_status, 0);
  session.close();
});
