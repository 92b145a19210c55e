// Generates core/src/phone/numbering_data.rs from libphonenumber-js metadata (Google libphonenumber).
//
// Usage (from the repository root):
//   mkdir -p /tmp/numgen && (cd /tmp/numgen && npm install libphonenumber-js@1.13.16)
//   NODE_PATH=/tmp/numgen/node_modules node core/data/generate_numbering.mjs > core/src/phone/numbering_data.rs
//
// For every country it takes the MOBILE national number pattern (or the fixed-line pattern where
// libphonenumber marks the country's numbers as FIXED_LINE_OR_MOBILE, e.g. +1) and the mobile
// possible lengths, and expands the pattern into the minimal set of national prefixes after which
// every remaining digit is free, per allowed length. Countries that share a calling code are merged
// into one prefix trie per calling code, serialised in a compact text form (see the Rust parser in
// core/src/phone/data.rs for the grammar). Non-geographic codes (800, 881, …) are left out.
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(path.join(process.env.NODE_PATH || process.cwd(), 'x.js'))
const metadata = require('libphonenumber-js/metadata.max.json')
const pkg = require('libphonenumber-js/package.json')
const PINNED = '1.13.16' // bump together with the commands in the header above
if (pkg.version !== PINNED) console.error(`warning: libphonenumber-js ${pkg.version} installed, ${PINNED} pinned`)

// ---- A tiny regex engine for the subset used by the patterns: digits, \d, [..], (?:..), |, {n}, {n,m}, ?
function parse(src) {
  let i = 0
  function alt() {
    const alts = [seq()]
    while (src[i] === '|') { i++; alts.push(seq()) }
    return { alts }
  }
  function seq() {
    const items = []
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      let atom
      const c = src[i]
      if (c === '(') {
        i++
        if (src.startsWith('?:', i)) i += 2
        atom = { group: alt() }
        if (src[i] !== ')') throw new Error('unbalanced ) in ' + src)
        i++
      } else if (c === '\\') {
        if (src[i + 1] !== 'd') throw new Error('unsupported escape in ' + src)
        i += 2
        atom = { set: 0x3ff }
      } else if (c === '[') {
        i++
        let set = 0
        while (src[i] !== ']') {
          const a = +src[i]
          if (src[i + 1] === '-') { const b = +src[i + 2]; for (let d = a; d <= b; d++) set |= 1 << d; i += 3 } else { set |= 1 << a; i++ }
        }
        i++
        atom = { set }
      } else if (c >= '0' && c <= '9') {
        i++
        atom = { set: 1 << +c }
      } else throw new Error(`unsupported '${c}' in ${src}`)
      let min = 1, max = 1
      if (src[i] === '{') {
        const m = /^\{(\d+)(?:,(\d+))?\}/.exec(src.slice(i))
        min = +m[1]; max = m[2] === undefined ? min : +m[2]; i += m[0].length
      } else if (src[i] === '?') { min = 0; i++ }
      items.push({ atom, min, max })
    }
    return items
  }
  const r = alt()
  if (i !== src.length) throw new Error('trailing input in ' + src)
  return r
}

// Thompson NFA: states with digit-set edges and epsilon edges.
function compile(ast) {
  const edges = [] // state -> [{set, to}] ; set 0 = epsilon
  const ns = () => { edges.push([]); return edges.length - 1 }
  function alt(node, from) {
    const end = ns()
    for (const s of node.alts) { const e = seq(s, from); edges[e].push({ set: 0, to: end }) }
    return end
  }
  function atom(a, from) {
    if (a.set !== undefined) { const to = ns(); edges[from].push({ set: a.set, to }); return to }
    return alt(a.group, from)
  }
  function seq(items, from) {
    let cur = from
    for (const { atom: a, min, max } of items) {
      for (let k = 0; k < min; k++) cur = atom(a, cur)
      const ends = [cur]
      for (let k = min; k < max; k++) { cur = atom(a, cur); ends.push(cur) }
      if (max > min) { const j = ns(); for (const e of ends) edges[e].push({ set: 0, to: j }); cur = j }
    }
    return cur
  }
  const start = ns()
  const accept = alt(ast, start)
  return { edges, start, accept }
}

function prefixesFor(pattern, lengths) {
  const { edges, start, accept } = compile(parse(pattern))
  const closure = (states) => {
    const seen = new Set(states), stack = [...states]
    while (stack.length) { const s = stack.pop(); for (const e of edges[s]) if (e.set === 0 && !seen.has(e.to)) { seen.add(e.to); stack.push(e.to) } }
    return [...seen].sort((a, b) => a - b)
  }
  const step = (S, d) => closure(S.flatMap(s => edges[s].filter(e => e.set & (1 << d)).map(e => e.to)))
  const memo = new Map()
  // 0 = empty language, 1 = every string of length r, 2 = partial
  function kind(S, r) {
    const key = S.join(',') + '|' + r
    if (memo.has(key)) return memo.get(key)
    let k
    if (S.length === 0) k = 0
    else if (r === 0) k = S.includes(accept) ? 1 : 0
    else {
      let full = true, empty = true
      for (let d = 0; d < 10; d++) { const x = kind(step(S, d), r - 1); if (x !== 1) full = false; if (x !== 0) empty = false }
      k = full ? 1 : empty ? 0 : 2
    }
    memo.set(key, k)
    return k
  }
  const out = [] // [prefix, length]
  for (const L of lengths) {
    const walk = (S, prefix, r) => {
      const k = kind(S, r)
      if (k === 0) return
      if (k === 1) { out.push([prefix, L]); return }
      for (let d = 0; d < 10; d++) walk(step(S, d), prefix + d, r - 1)
    }
    walk(closure([start]), '', L)
  }
  return out
}

// Ranges added by hand to the data, per country: [national prefix, national length]. None:
// texto follows the numbering plans exactly (Ofcom's fictional 07700 900xxx is refused, as by libphonenumber).
const EXTRA_MOBILE = {}

// ---- Build one trie per calling code.
const newNode = () => ({ term: null, kids: new Array(10).fill(null) })
const records = []
const warnings = []
const merged = []
let totalPrefixes = 0, trieNodes = 0
for (const [cc, isos] of Object.entries(metadata.country_calling_codes).sort((a, b) => +a[0] - +b[0])) {
  const countries = []
  const root = newNode()
  const pairs = [] // [countryIndex, lengthsKey]
  const pairIndex = new Map()
  for (const iso of isos) {
    if (iso === '001') continue
    const m = metadata.countries[iso]
    const types = m[11]
    if (!types || !types[1]) { warnings.push(`${iso}: no mobile type, left out`); continue }
    const pattern = types[1][0] === '' ? types[0][0] : types[1][0]
    const lengths = (types[1][0] === '' ? types[0][1] : types[1][1]) || m[3]
    const ci = countries.length
    const natPrefix = typeof m[5] === 'string' ? m[5] : ''
    if (!/^\d*$/.test(natPrefix)) throw new Error(`${iso}: odd national prefix ${natPrefix}`)
    countries.push(iso + natPrefix)
    const prefixes = prefixesFor(pattern, lengths).concat(EXTRA_MOBILE[iso] || [])
    if (!prefixes.length) throw new Error(`${iso}: no mobile prefix`)
    totalPrefixes += prefixes.length
    // merge lengths per prefix
    const byPrefix = new Map()
    for (const [p, L] of prefixes) byPrefix.set(p, (byPrefix.get(p) || []).concat(L))
    for (const [p, Ls] of byPrefix) {
      let n = root
      for (const ch of p) { const d = +ch; n.kids[d] ??= newNode(); n = n.kids[d] }
      const key = Ls.sort((a, b) => a - b).map(L => L.toString(16)).join('')
      if (n.term !== null) continue // shared with an earlier (main) country of the calling code: it keeps it
      const pk = ci + '/' + key
      if (!pairIndex.has(pk)) { pairIndex.set(pk, pairs.length); pairs.push([ci, key]) }
      n.term = pairIndex.get(pk)
    }
  }
  // A country whose ranges all belong to the calling code's main country (VA in IT's plan, …)
  // cannot be told apart: its numbers are reported as the main country's and it is left out.
  const used = [...new Set(pairs.map(([ci]) => ci))].sort((a, b) => a - b)
  for (let ci = 0; ci < countries.length; ci++) if (!used.includes(ci)) { merged.push(`${countries[ci].slice(0, 2)} (in ${countries[0].slice(0, 2)})`) }
  const kept = used.map(ci => countries[ci])
  for (const p of pairs) p[0] = used.indexOf(p[0])
  countries.length = 0
  countries.push(...kept)
  if (!countries.length) continue
  const MARK = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
  if (pairs.length > MARK.length) throw new Error(`${cc}: too many (country, lengths) pairs`)
  const digitSet = (ds) => {
    if (ds.length === 1) return String(ds[0])
    let s = '[', k = 0
    while (k < ds.length) {
      let j = k
      while (j + 1 < ds.length && ds[j + 1] === ds[j] + 1) j++
      s += j - k >= 2 ? `${ds[k]}-${ds[j]}` : ds.slice(k, j + 1).join('')
      k = j + 1
    }
    return s + ']'
  }
  const ser = (n) => {
    trieNodes++
    const groups = new Map()
    for (let d = 0; d < 10; d++) if (n.kids[d]) { const s = ser(n.kids[d]); groups.set(s, (groups.get(s) || []).concat(d)) }
    const parts = [...groups].map(([s, ds]) => digitSet(ds) + s)
    const children = parts.length === 0 ? '' : parts.length === 1 ? parts[0] : '(' + parts.join('') + ')'
    if (n.term === null) return children
    return (children ? '!' : '') + MARK[n.term] + children
  }
  const trie = ser(root)
  records.push(`${cc} ${countries.join(',')} ${pairs.map(([ci, k]) => MARK[ci] + k).join(',')} ${trie}`)
}

const data = records.join('\n')
for (const w of warnings) console.error('warning: ' + w)
console.error(`${records.length} calling codes, ${totalPrefixes} (prefix, length) pairs, ${trieNodes} trie nodes, ${data.length} bytes of data`)

// Split the string into lines of at most ~100 characters with `\` continuations so the file stays readable.
const lines = []
for (const r of records) {
  for (let k = 0; k < r.length; k += 96) lines.push(r.slice(k, k + 96) + (k + 96 < r.length ? '\\' : '\\n\\'))
}
function wrap(text) {
  const out = []
  let line = '//'
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 100) { out.push(line); line = '//' }
    line += ' ' + word
  }
  return out.concat(line).join('\n')
}

process.stdout.write(`// @generated by core/data/generate_numbering.mjs from libphonenumber-js ${pkg.version}
// (metadata.max.json, Google libphonenumber numbering plans). Do not edit by hand; regenerate with:
//   mkdir -p /tmp/numgen && (cd /tmp/numgen && npm install libphonenumber-js@${pkg.version})
//   NODE_PATH=/tmp/numgen/node_modules node core/data/generate_numbering.mjs > core/src/phone/numbering_data.rs
${wrap(`${records.length} calling codes, ${totalPrefixes} (prefix, length) pairs. Left out, having no mobile range of their own (their numbers are reported as the main country's): ${merged.join(', ')}. No mobile plan: ${warnings.map(w => w.split(':')[0]).join(', ')}. Non-geographic codes (800, 881, …) are left out.${Object.keys(EXTRA_MOBILE).length ? ` Added by hand: ${Object.entries(EXTRA_MOBILE).map(([iso, r]) => r.map(([p, l]) => `${iso} ${p} (${l} digits)`).join(', ')).join(', ')}.` : ''}`)}

/// The libphonenumber-js version the numbering data comes from.
pub(crate) const SOURCE_VERSION: &str = "${pkg.version}";

/// One line per calling code: \`CC COUNTRIES PAIRS TRIE\` (grammar in \`data.rs\`).
pub(crate) const NUMBERING: &str = "\\
${lines.join('\n')}
";
`)
