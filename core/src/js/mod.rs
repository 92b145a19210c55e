//! The JavaScript face of `texto-core` (compiled for wasm32 only), published as the npm package.
//!
//! Bodies go in as strings (the exact wire text) so a million recipients cross the boundary
//! once. Results are plain JS objects; each has a TypeScript type in the generated `.d.ts`.
//! Failures throw a JS `Error` with the message; validation problems come back as data.

mod campaign;
mod codec;
mod convert;
mod numbers;
mod signature;
mod smart_encoding;
mod text;

pub use campaign::{segments, simulate, validate_send};
pub use codec::{decode, encode};
pub use numbers::{next_allowed_send, normalize_number};
pub use signature::{sign_webhook, verify_webhook};
pub use smart_encoding::{to_gsm, to_gsm_all};

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** Wire format of a body. */
export type Format = "json" | "xml";

/**
 * A point in time: a Date, milliseconds since the epoch, an ISO-8601 string, or the interface's
 * `delay` format `Y-m-d H:i:s` in Europe/Paris time (`"2026-12-24 09:30:00"`).
 */
export type Instant = Date | number | string;

/** How a text is split into SMS parts (docs/interface.md §4.1). */
export interface Segments {
  /** `gsm7` (160 per SMS, 153 per part) or `ucs2` (70, 67 per part). */
  encoding: "gsm7" | "ucs2";
  /** Length in units of the encoding: septets (an extension character counts 2) or UTF-16 units. */
  length: number;
  /** Number of SMS parts; 0 for an empty text. */
  parts: number;
  /** Units each part holds. */
  perPart: number;
  /** Units still free in the last part. */
  remaining: number;
  /** Distinct characters, in order of appearance, that forced UCS-2. */
  unicodeChars: string[];
}

/** Options of `segments`: what the text becomes once sent. */
export interface SegmentOptions {
  /** Force UCS-2. */
  unicode?: boolean;
  /** `marketing` adds the opt-out text (or fills `<-stop->`). Default `alert`. */
  pushtype?: "alert" | "marketing";
  /** Origin of short links; each `<-short->` counts as `{publicUrl}/s/` + 6 characters. */
  publicUrl?: string;
  /** Opt-out text of marketing messages. Default `STOP au 36180`. */
  stopText?: string;
}

/** A text made GSM by `toGsm`. */
export interface GsmText {
  /** The text with every twin in place. */
  text: string;
  /** How many characters were replaced. */
  replaced: number;
  /** Each distinct character replaced and its twin, in order of first appearance. */
  twins: { from: string; to: string }[];
}

/** Many texts made GSM by `toGsmAll`. */
export interface GsmTexts {
  /** The texts with every twin in place, in the order given. */
  texts: string[];
  /** How many characters each had replaced. */
  replaced: Uint32Array;
}

/** One problem of a request. */
export interface FieldError {
  /** Dotted path of the field, e.g. `sms.message.text`. */
  path: string;
  /** What is wrong. */
  message: string;
}

/** Options of `validateSend` and `simulate`. */
export interface SendOptions {
  /** Which endpoint the body is for; by default `send`, or `sendLists` when it names lists. */
  endpoint?: "send" | "sendLists" | "simulate" | "simulateLists";
  /** The clock (for `delay`). Default: now. */
  now?: Instant;
  /** Origin of short links. */
  publicUrl?: string;
  /** Opt-out text of marketing messages. */
  stopText?: string;
}

/** What `validateSend` says of a request. */
export interface Validation {
  /** True when the request is valid. */
  ok: boolean;
  /** Every problem (empty when ok). */
  errors: FieldError[];
  /** The interface status the server would answer: 1, -4 (delay), -7 (data), -6/-2 (syntax). */
  status: number;
  /** What the campaign is, when ok. */
  summary?: {
    pushtype: "alert" | "marketing";
    /** Numbers in the request (0 for a list send). */
    recipients: number;
    /** List ids (empty for a send to numbers). */
    lists: string[];
    /** The requested delay as ISO-8601 UTC, or null for now. */
    delay: string | null;
    sender: string | null;
    /** The split of the text as sent (opt-out text and short links included). */
    segments: Segments;
  };
}

/** The account as the filter sees it. Numbers are international digits (`33612345678`). */
export interface FilterContext {
  /** Blacklisted numbers; an entry that is not a valid mobile number matches no one and is ignored. */
  blacklist?: string[];
  /** NPAI numbers (unreachable addresses); invalid entries are ignored, as in `blacklist`. */
  npai?: string[];
  /** ISO country codes the account may send to; absent: all. */
  allowedCountries?: string[];
  /** Recent sends per number in the last 60 minutes. */
  recent?: Record<string, { identical: number; any: number }>;
  /** Anti-flood limits (default 6 identical, 20 in all per number per hour). */
  flood?: { identicalPerHour: number; anyPerHour: number };
  /** Messages sent this month, by ISO country. */
  monthlyUsage?: Record<string, number>;
  /** Monthly caps, by ISO country. */
  monthlyCaps?: Record<string, number>;
  /** Credits per SMS part by ISO country; key `other` for the rest. Default: the shipped table. */
  prices?: Record<string, number>;
  /** Credits before the campaign. */
  balance: number;
  publicUrl?: string;
  stopText?: string;
  /** Contacts of the stored lists a list send names. */
  lists?: Record<string, { value: string; info1?: string; info2?: string; info3?: string; info4?: string }[]>;
  /** When the account's marketing needs consent: the numbers with an opt-in in force. Absent: consent is not asked. */
  consented?: string[];
  /** When the account caps marketing: the numbers that reached the cap. Absent: no cap. */
  capped?: string[];
}

/** Outcome codes of `SimulationResult.outcomes`, in order. */
export type OutcomeName = "sent" | "invalid" | "duplicated" | "blacklisted" | "npai" | "not_allowed" | "flood" | "country_limit" | "no_consent" | "capped";

/** The campaign result (the counters as the HTTP answer has them) plus each recipient's outcome. */
export interface SimulationResult {
  status: 1;
  message: "OK";
  cost: number;
  credits: number;
  total: number;
  sent: number;
  blacklisted: number;
  duplicated: number;
  invalid: number;
  npai: number;
  not_allowed: number;
  flood: number;
  country_limit: number;
  /** Skipped for want of an opt-in: present when `context.consented` is given. */
  no_consent?: number;
  /** Skipped by the frequency cap (marketing): present when `context.capped` is given. */
  capped?: number;
  /** Characters smart encoding replaced: present when the body asks `encoding: "gsm"`. */
  replaced?: number;
  /** SMS parts each message saves by it: present with `replaced`. */
  parts_saved?: number;
  /** Messages of an A/B test's sample: present with `variants`. */
  ab_sample?: number;
  /** Messages that wait for the A/B test's winner: present with `variants`. */
  ab_remainder?: number;
  /** Marketing's recipients in each overseas territory, and when their own window lets them
   * go (`Y-m-d H:i:s`, Paris time): present when there are some. */
  overseas?: { territory: string; recipients: number; send_at: string }[];
  /** When it goes out (the first of its recipients' marketing windows to open), ISO-8601 UTC. */
  sendAt: string;
  /** One code per recipient, in request order: an index into `outcomeNames`. */
  outcomes: Uint8Array;
  /** Names of the outcome codes. */
  outcomeNames: OutcomeName[];
  /** SMS parts per recipient (0 when filtered). */
  parts: Uint8Array;
}
"#;
