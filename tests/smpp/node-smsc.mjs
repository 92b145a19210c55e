// An SMSC texto did not write, for the suites that need a second carrier: npm's `smpp` server
// (node-smpp), over TCP or TLS. It accepts binds with one system_id and password, answers every
// submit_sm with a message_id, and sends a delivery receipt 50 ms later whose outcome follows
// the same rule as texto's simulator (docs/interface.md §6.5: the destination's last two digits),
// on any bound session (a receipt due while no session is bound waits for the next bind).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import smpp from "smpp";

/** stat and err of the receipt for `destination` (the simulator's rule). */
function outcome(destination) {
  if (destination.endsWith("00")) return ["UNDELIV", "001"];
  if (destination.endsWith("99")) return ["UNDELIV", "000"];
  if (destination.endsWith("98")) return ["EXPIRED", "000"];
  if (destination.endsWith("97")) return ["REJECTD", "000"];
  return ["DELIVRD", "000"];
}

/**
 * A carrier's private authority and the certificate it signed for 127.0.0.1, made by `openssl`
 * in a temporary folder; `caFile` is the authority's PEM file, as an operator gets it.
 * @returns {{key: Buffer, cert: Buffer, caFile: string, remove: () => void}}
 */
export function loopbackCertificate() {
  const dir = mkdtempSync(join(tmpdir(), "texto-smsc-tls-"));
  const file = (name) => join(dir, name);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"];
  const openssl = (args) => execFileSync("openssl", args, { stdio: "ignore" });
  openssl(["req", "-x509", ...ec, "-keyout", file("ca.key"), "-out", file("ca.pem"), "-subj", "/CN=node-smsc authority"]);
  openssl([
    "req", "-x509", ...ec, "-keyout", file("key.pem"), "-out", file("cert.pem"), "-subj", "/CN=node-smsc",
    "-CA", file("ca.pem"), "-CAkey", file("ca.key"),
    "-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:FALSE",
  ]);
  return {
    key: readFileSync(file("key.pem")),
    cert: readFileSync(file("cert.pem")),
    caFile: file("ca.pem"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Starts the SMSC on a free loopback port.
 * @param {{tls?: {key: Buffer, cert: Buffer}, systemId?: string, password?: string, dlrDelayMs?: number}} options
 * @returns smppAddr (HOST:PORT), status() `{binds, received}`, messages() (every accepted
 * submit_sm's destination, in order), cut() (drops every session), stop()
 */
export async function startNodeSmsc({ tls, systemId = "texto", password = "secret", dlrDelayMs = 50 } = {}) {
  const bound = new Set();
  const received = [];
  const dueReceipts = [];
  let nextId = 1;
  let handshakes = 0;

  const deliver = (receipt) => {
    const session = [...bound][0];
    if (!session) return dueReceipts.push(receipt);
    const { destination, id } = receipt;
    const [stat, err] = outcome(destination);
    const text = `id:${id} sub:001 dlvrd:${stat === "DELIVRD" ? "001" : "000"} submit date:2611261200 done date:2611261200 stat:${stat} err:${err} text:`;
    session.deliver_sm({ source_addr: destination, source_addr_ton: 1, source_addr_npi: 1, destination_addr: "36180", esm_class: 0x04, data_coding: 0, short_message: Buffer.from(text, "ascii") });
  };

  const onSession = (session) => {
    handshakes += 1;
    session.on("error", () => {});
    session.on("close", () => bound.delete(session));
    session.on("bind_transceiver", (pdu) => {
      const ok = pdu.system_id === systemId && pdu.password === password;
      session.send(pdu.response({ command_status: ok ? smpp.ESME_ROK : smpp.ESME_RBINDFAIL, system_id: "node-smsc" }));
      if (!ok) return;
      bound.add(session);
      for (const receipt of dueReceipts.splice(0)) deliver(receipt);
    });
    session.on("submit_sm", (pdu) => {
      const id = `node-${nextId++}`;
      received.push(pdu.destination_addr);
      session.send(pdu.response({ message_id: id }));
      setTimeout(() => deliver({ destination: pdu.destination_addr, id }), dlrDelayMs);
    });
    session.on("enquire_link", (pdu) => session.send(pdu.response()));
    session.on("unbind", (pdu) => {
      bound.delete(session);
      session.send(pdu.response());
    });
  };
  const server = tls ? smpp.createServer({ key: tls.key, cert: tls.cert }, onSession) : smpp.createServer(onSession);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    smppAddr: `127.0.0.1:${server.address().port}`,
    /** Sessions bound now, submits accepted so far, and connections that got as far as SMPP. */
    status: async () => ({ binds: bound.size, received: received.length, sessions: handshakes }),
    /** The destination of every accepted submit_sm, in order. */
    messages: async () => [...received],
    /** Drops every session, as a carrier's outage does. */
    cut: () => {
      for (const session of server.sessions) session.destroy();
    },
    stop: async () => {
      for (const session of server.sessions) session.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
