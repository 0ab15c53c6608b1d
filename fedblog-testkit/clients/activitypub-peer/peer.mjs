// An independent ActivityPub peer built with Fedify, and a scenario that checks a fedblog server
// against it over loopback.
//
//   PEER_PORT=5555 FEDBLOG_BASE=http://127.0.0.1:4321 FEDBLOG_USER=alice FEDBLOG_TOKEN=... \
//     node peer.mjs
//
// The peer serves one actor, `peer` (a Person with an RSA key made at start), at
// http://127.0.0.1:$PEER_PORT/users/peer: its inbox /users/peer/inbox, the shared inbox /inbox,
// its followers, following and outbox collections, its notes, and WebFinger for
// acct:peer@127.0.0.1:$PEER_PORT, all through Fedify; and, outside Fedify, the images its notes
// attach at /media/{name}.png. It accepts every Follow (an `Accept` signed and sent back to the
// follower's inbox) and records every activity that reaches an inbox.
// Fedify calls an inbox listener only for a request whose signature verified, so every
// activity recorded here was signed correctly by its actor; the HTTP bridge also verifies each
// inbox POST's HTTP signature on its own (Fedify's `verifyRequest`) to name the key that signed.
//
// Without FEDBLOG_BASE the peer only serves (until interrupted), to be looked at with curl.
// With it, the scenario runs against fedblog and the process exits 0 only if every check
// passed (1 on a failed check or the overall timeout of 180 s, 2 on bad settings).
//
// Every request goes to loopback: a fetch to any other host is refused (and reported). Fedify
// looks up `acct:` handles over https only, as Mastodon does; loopback has no TLS here, so
// https://127.0.0.1:... (and localhost) requests are made over http instead.
//
// PEER_LOG=debug|info|warning|error sets how much of Fedify's log reaches stderr (warning).

import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import { randomUUID } from "node:crypto";
import { deflateSync } from "node:zlib";
import {
  Accept,
  Activity,
  Create,
  createExponentialBackoffPolicy,
  createFederation,
  Document,
  Endpoints,
  Follow,
  generateCryptoKeyPair,
  Hashtag,
  InProcessMessageQueue,
  isActor,
  Like,
  MemoryKvStore,
  Mention,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Question,
  Collection,
  Undo,
  Update,
  verifyRequest,
} from "@fedify/fedify";
import { configure } from "@logtape/logtape";
import { Temporal } from "@js-temporal/polyfill";

// --- settings ------------------------------------------------------------------------------

const OVERALL_TIMEOUT_MS = 180_000;
const WAIT_MS = 20_000;
const POLL_INTERVAL_MS = 250;

function fail(message) {
  console.error(`peer: ${message}`);
  process.exit(2);
}

const PEER_PORT = Number(process.env.PEER_PORT);
if (!Number.isInteger(PEER_PORT) || PEER_PORT <= 0 || PEER_PORT > 65535) {
  fail(`PEER_PORT must be a TCP port, not ${JSON.stringify(process.env.PEER_PORT)}`);
}
const PEER_HOST = `127.0.0.1:${PEER_PORT}`;
const ORIGIN = `http://${PEER_HOST}`;
const PEER_ID = "peer";
const PEER_ACCT = `${PEER_ID}@${PEER_HOST}`;

const FEDBLOG_BASE = (process.env.FEDBLOG_BASE ?? "").replace(/\/+$/, "");
const FEDBLOG_USER = process.env.FEDBLOG_USER ?? "alice";
const FEDBLOG_TOKEN = process.env.FEDBLOG_TOKEN ?? "";
let FEDBLOG_DOMAIN = "";
if (FEDBLOG_BASE !== "") {
  let base;
  try {
    base = new URL(FEDBLOG_BASE);
  } catch {
    fail(`FEDBLOG_BASE is not a URL: ${JSON.stringify(FEDBLOG_BASE)}`);
  }
  if (!isLoopbackHost(base.hostname)) fail(`FEDBLOG_BASE must be a loopback URL, not ${FEDBLOG_BASE}`);
  if (FEDBLOG_TOKEN === "") fail("FEDBLOG_TOKEN is required with FEDBLOG_BASE");
  FEDBLOG_DOMAIN = base.host;
}

function isLoopbackHost(hostname) {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

// --- Fedify's log: warnings to stderr, and the signature checks' reasons kept for reports ----

const LEVELS = ["debug", "info", "warning", "error", "fatal"];
const stderrLevel = LEVELS.indexOf(process.env.PEER_LOG ?? "warning");
const fedifyLog = []; // { at, level, category, text }

function renderLogMessage(parts) {
  return parts
    .map((p, i) => {
      if (i % 2 === 0) return String(p);
      if (typeof p === "string") return p;
      try {
        return JSON.stringify(p)?.slice(0, 300) ?? String(p);
      } catch {
        return String(p);
      }
    })
    .join("");
}

await configure({
  contextLocalStorage: new AsyncLocalStorage(),
  sinks: {
    peer(record) {
      const category = record.category.join(".");
      const text = renderLogMessage(record.message);
      fedifyLog.push({ at: Date.now(), level: record.level, category, text });
      if (fedifyLog.length > 2000) fedifyLog.splice(0, 1000);
      // Fedify would add Object Integrity Proofs only with an Ed25519 key; the peer has RSA alone.
      const expected = text.startsWith("No supported key found to create a proof");
      if (LEVELS.indexOf(record.level) >= Math.max(stderrLevel, 0) && !expected) {
        console.error(`peer-log: ${record.level} ${category}: ${text}`);
      }
    },
  },
  loggers: [
    { category: "fedify", sinks: ["peer"], lowestLevel: "debug" },
    { category: ["logtape", "meta"], sinks: ["peer"], lowestLevel: "warning" },
  ],
});

// --- outgoing requests: loopback only, recorded -------------------------------------------

const nativeFetch = globalThis.fetch;
const outgoing = []; // { method, url, status, error }
const refusedFetches = [];

globalThis.fetch = async function loopbackFetch(input, init) {
  let request = new Request(input, init);
  let url = new URL(request.url);
  if (!isLoopbackHost(url.hostname)) {
    refusedFetches.push(url.href);
    throw new TypeError(`the peer refuses to reach a non-loopback URL: ${url.href}`);
  }
  if (url.protocol === "https:") {
    url.protocol = "http:";
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    request = new Request(url, {
      method: request.method,
      headers: request.headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      redirect: request.redirect,
      signal: request.signal,
    });
  }
  const entry = { method: request.method, url: url.href, status: null, error: null };
  outgoing.push(entry);
  try {
    const response = await nativeFetch(request);
    entry.status = response.status;
    return response;
  } catch (error) {
    entry.error = String(error?.cause ?? error);
    throw error;
  }
};

// --- the peer's state ---------------------------------------------------------------------

const keyPair = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
const followers = new Map(); // actor id -> the follower actor (a Recipient)
const notes = new Map(); // local note id (uuid) -> Note
const follows = new Map(); // uuid -> Follow
const questions = new Map(); // uuid -> Question (the peer's polls)
const likes = new Map(); // uuid -> Like
const received = []; // verified activities, in order of arrival
const inboxPosts = []; // every POST to an inbox, as the HTTP bridge saw it
const acceptsSent = []; // { followId, to, error }
const inboxErrors = [];
const outboxErrors = [];
const media = new Map(); // path (/media/{name}.png) -> { bytes, type }: images the peer's notes attach
const mediaGets = []; // { method, path, at }: requests for them

// --- a small PNG, built from bytes ---------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A valid `size`×`size` RGB PNG (8 bits a channel, no interlace): a gradient on `rgb`. */
function makePng(size, rgb) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  // compression, filter and interlace methods: 0
  const raw = Buffer.alloc(size * (1 + 3 * size));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + 3 * size);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const shade = Math.round((255 * (x + y)) / (2 * (size - 1)));
      raw[row + 1 + 3 * x] = (rgb[0] + shade) & 0xff;
      raw[row + 2 + 3 * x] = (rgb[1] + shade) & 0xff;
      raw[row + 3 + 3 * x] = rgb[2];
    }
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

// --- the federation -----------------------------------------------------------------------

const federation = createFederation({
  kv: new MemoryKvStore(),
  queue: new InProcessMessageQueue(),
  origin: ORIGIN,
  allowPrivateAddress: true,
  userAgent: { software: "fedblog-testkit-activitypub-peer" },
  outboxRetryPolicy: createExponentialBackoffPolicy({ maxAttempts: 2 }),
  inboxRetryPolicy: createExponentialBackoffPolicy({ maxAttempts: 2 }),
  onOutboxError(error, activity) {
    outboxErrors.push({ error: String(error), activityId: activity?.id?.href ?? null });
  },
});

federation
  .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
    if (identifier !== PEER_ID) return null;
    const keys = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: "Fedify peer",
      summary: "<p>An ActivityPub peer (Fedify) that checks fedblog over loopback.</p>",
      url: ctx.getActorUri(identifier),
      inbox: ctx.getInboxUri(identifier),
      outbox: ctx.getOutboxUri(identifier),
      following: ctx.getFollowingUri(identifier),
      followers: ctx.getFollowersUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: keys[0].cryptographicKey,
      assertionMethods: keys.map((k) => k.multikey),
      manuallyApprovesFollowers: false,
      discoverable: true,
      published: Temporal.Instant.from("2024-01-01T00:00:00Z"),
    });
  })
  .setKeyPairsDispatcher(async (_ctx, identifier) => (identifier === PEER_ID ? [keyPair] : []))
  .mapHandle((_ctx, username) => (username === PEER_ID ? PEER_ID : null));

federation
  .setFollowersDispatcher("/users/{identifier}/followers", async (_ctx, identifier) => {
    if (identifier !== PEER_ID) return null;
    return { items: [...followers.values()] };
  })
  .setCounter(() => followers.size);

federation
  .setFollowingDispatcher("/users/{identifier}/following", async (_ctx, identifier) =>
    identifier === PEER_ID ? { items: [] } : null)
  .setCounter(() => 0);

federation
  .setOutboxDispatcher("/users/{identifier}/outbox", async (_ctx, identifier) =>
    identifier === PEER_ID ? { items: [] } : null)
  .setCounter(() => 0);

federation.setObjectDispatcher(Note, "/users/{identifier}/notes/{id}", (_ctx, v) =>
  v.identifier === PEER_ID ? (notes.get(v.id) ?? null) : null);
federation.setObjectDispatcher(Question, "/users/{identifier}/questions/{id}", (_ctx, v) =>
  v.identifier === PEER_ID ? (questions.get(v.id) ?? null) : null);
federation.setObjectDispatcher(Follow, "/users/{identifier}/follows/{id}", (_ctx, v) =>
  v.identifier === PEER_ID ? (follows.get(v.id) ?? null) : null);
federation.setObjectDispatcher(Like, "/users/{identifier}/likes/{id}", (_ctx, v) =>
  v.identifier === PEER_ID ? (likes.get(v.id) ?? null) : null);

federation
  .setInboxListeners("/users/{identifier}/inbox", "/inbox")
  .on(Activity, async (ctx, activity) => {
    const entry = {
      at: Date.now(),
      type: activity.constructor.name,
      activity,
      id: activity.id?.href ?? null,
      actorId: activity.actorId?.href ?? null,
      objectId: activity.objectId?.href ?? null,
      inbox: ctx.recipient == null ? "shared inbox /inbox" : `inbox of ${ctx.recipient}`,
      object: null,
      objectError: null,
    };
    try {
      entry.object = await activity.getObject(ctx);
    } catch (error) {
      entry.objectError = String(error);
    }
    received.push(entry);
    if (FEDBLOG_BASE === "") {
      console.log(`peer: verified ${entry.type} ${entry.id} from ${entry.actorId} at the ${entry.inbox}`);
    }
    if (activity instanceof Follow) await acceptFollow(ctx, activity, entry);
    if (activity instanceof Undo && entry.object instanceof Follow && entry.actorId != null) {
      followers.delete(entry.actorId);
    }
  })
  .onError((_ctx, error) => {
    inboxErrors.push(String(error?.stack ?? error));
  });

/** Accepts a Follow of the peer: the follower is added and an `Accept` goes to its inbox. */
async function acceptFollow(ctx, follow, entry) {
  const record = { followId: entry.id, to: null, error: null, at: Date.now() };
  acceptsSent.push(record);
  try {
    if (follow.objectId?.href !== ctx.getActorUri(PEER_ID).href) {
      throw new Error(`the Follow's object is ${follow.objectId?.href}, not the peer`);
    }
    const follower = await follow.getActor(ctx);
    if (!isActor(follower) || follower.id == null || follower.inboxId == null) {
      throw new Error(`the Follow's actor ${follow.actorId?.href} is not an actor with an inbox`);
    }
    record.to = follower.inboxId.href;
    followers.set(follower.id.href, follower);
    await ctx.sendActivity(
      { identifier: PEER_ID },
      follower,
      new Accept({
        id: new URL(`${ctx.getActorUri(PEER_ID).href}#accepts/${randomUUID()}`),
        actor: ctx.getActorUri(PEER_ID),
        object: follow,
      }),
      { immediate: true },
    );
    record.ok = true;
    if (FEDBLOG_BASE === "") console.log(`peer: accepted the Follow ${entry.id}; Accept sent to ${record.to}`);
  } catch (error) {
    record.error = String(error);
    if (FEDBLOG_BASE === "") console.log(`peer: could not accept the Follow ${entry.id}: ${record.error}`);
  }
}

// --- the HTTP bridge: node:http <-> Fedify's fetch(Request) -> Response -------------------

const INBOX_PATHS = new Set(["/inbox", `/users/${PEER_ID}/inbox`]);

/** Reads a request's `Signature` header's `keyId` and `headers` (draft-cavage). */
function parseSignatureHeader(value) {
  if (value == null) return null;
  const fields = {};
  for (const m of value.matchAll(/([A-Za-z]+)="([^"]*)"/g)) fields[m[1]] = m[2];
  return fields;
}

/** Notes an inbox POST before Fedify handles it, checking its HTTP signature independently. */
async function noteInboxPost(request, body, url) {
  const post = {
    at: Date.now(),
    path: url.pathname,
    activityId: null,
    activityType: null,
    actorId: null,
    json: null,
    signature: parseSignatureHeader(request.headers.get("signature")),
    signatureInput: request.headers.get("signature-input"),
    httpSigKeyId: null,
    httpSigOwner: null,
    httpSigError: null,
    status: null,
    responseText: null,
    log: [],
  };
  try {
    post.json = JSON.parse(body.toString("utf8"));
    post.activityId = typeof post.json.id === "string" ? post.json.id : null;
    post.activityType = post.json.type ?? null;
    post.actorId = typeof post.json.actor === "string" ? post.json.actor : post.json.actor?.id ?? null;
  } catch (error) {
    post.json = body.toString("utf8").slice(0, 500);
  }
  try {
    const ctx = federation.createContext(new URL(ORIGIN), undefined);
    const key = await verifyRequest(request, {
      documentLoader: ctx.documentLoader,
      contextLoader: ctx.contextLoader,
    });
    if (key == null) post.httpSigError = "Fedify's verifyRequest refused the HTTP signature";
    else {
      post.httpSigKeyId = key.id?.href ?? null;
      post.httpSigOwner = key.ownerId?.href ?? null;
    }
  } catch (error) {
    post.httpSigError = String(error);
  }
  inboxPosts.push(post);
  return post;
}

const server = http.createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i].toLowerCase();
      if (name === "connection" || name === "transfer-encoding" || name === "keep-alive") continue;
      headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    }
    const url = new URL(req.url, ORIGIN);
    // The images the peer's notes attach are plain files, outside Fedify.
    if ((req.method === "GET" || req.method === "HEAD") && media.has(url.pathname)) {
      const file = media.get(url.pathname);
      mediaGets.push({ method: req.method, path: url.pathname, at: Date.now() });
      res.writeHead(200, { "content-type": file.type, "content-length": String(file.bytes.length) });
      res.end(req.method === "HEAD" ? undefined : file.bytes);
      return;
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? body : undefined,
    });
    const post =
      req.method === "POST" && INBOX_PATHS.has(url.pathname)
        ? await noteInboxPost(request.clone(), body, url)
        : null;
    const logStart = fedifyLog.length;
    const response = await federation.fetch(request, {
      contextData: undefined,
      onNotFound: () => new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain" } }),
      onNotAcceptable: () =>
        new Response("This peer serves only ActivityPub JSON\n", {
          status: 406,
          headers: { "content-type": "text/plain", vary: "Accept" },
        }),
    });
    const responseBody = Buffer.from(await response.arrayBuffer());
    if (post != null) {
      post.status = response.status;
      post.responseText = responseBody.toString("utf8").slice(0, 300);
      post.log = fedifyLog
        .slice(logStart)
        .filter((l) => l.level !== "debug" || l.category.startsWith("fedify.sig"))
        .map((l) => `${l.category}: ${l.text}`);
    }
    const outHeaders = {};
    response.headers.forEach((value, name) => {
      outHeaders[name] = value;
    });
    res.writeHead(response.status, outHeaders);
    res.end(req.method === "HEAD" ? undefined : responseBody);
  } catch (error) {
    console.error(`peer: error answering ${req.method} ${req.url}: ${error?.stack ?? error}`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("internal error\n");
  }
});

// --- the scenario -------------------------------------------------------------------------

function scenarioCheck() {
  let total = 0;
  let failed = 0;
  return {
    ok(name) {
      total++;
      console.log(`ok - ${name}`);
      return true;
    },
    notOk(name, details) {
      total++;
      failed++;
      console.log(`not ok - ${name} (${oneLine(details)})`);
      return false;
    },
    /** A check: `details` (a function) is called only when it fails. */
    check(condition, name, details) {
      return condition ? this.ok(name) : this.notOk(name, details());
    },
    get total() {
      return total;
    },
    get failed() {
      return failed;
    },
  };
}

function oneLine(text) {
  const s = String(text).replace(/\s+/g, " ").trim();
  return s.length > 1500 ? `${s.slice(0, 1500)}...` : s;
}

/** A step stops here: what later steps need is missing. */
class StepStopped extends Error {}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Calls `probe` until it answers something truthy or `ms` pass; answers that, or null. */
async function poll(probe, ms = WAIT_MS) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() >= deadline) return null;
    await sleep(POLL_INTERVAL_MS);
  }
}

function textOf(html) {
  return String(html ?? "")
    .replace(/<[^>]*>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}

/**
 * A call to fedblog's Mastodon client API as the local user: a JSON body (`json`) or a
 * multipart one (`form`, a FormData).
 */
async function api(method, path, { json, query, form } = {}) {
  const url = new URL(FEDBLOG_BASE + path);
  for (const [name, value] of query ?? []) url.searchParams.append(name, value);
  const headers = { authorization: `Bearer ${FEDBLOG_TOKEN}`, accept: "application/json" };
  if (json !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await nativeFetch(url, {
      method,
      headers,
      body: form ?? (json === undefined ? undefined : JSON.stringify(json)),
    });
  } catch (error) {
    return { status: 0, body: null, text: `request failed: ${error?.cause ?? error}`, url: url.href };
  }
  const text = await response.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: reported through `text`
  }
  return { status: response.status, body, text, url: url.href };
}

function describeResponse(r) {
  return `${r.status} from ${r.url}: ${r.text.slice(0, 300)}`;
}

/** A plain GET of an ActivityPub document (as any peer would, unsigned). */
async function getActivityJson(url) {
  let response;
  try {
    response = await nativeFetch(url, { headers: { accept: "application/activity+json" } });
  } catch (error) {
    return { status: 0, contentType: "", json: null, text: `request failed: ${error?.cause ?? error}`, url };
  }
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // reported through `text`
  }
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", json, text, url };
}

/** A plain GET of a file (an attachment's URL), through the peer's loopback-only fetch. */
async function getFile(url) {
  let response;
  try {
    response = await globalThis.fetch(url);
  } catch (error) {
    return { status: 0, contentType: "", bytes: Buffer.alloc(0), error: String(error?.cause ?? error), url };
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", bytes, error: null, url };
}

function isActivityJson(contentType) {
  const ct = contentType.toLowerCase();
  return (
    ct.startsWith("application/activity+json") ||
    (ct.startsWith("application/ld+json") && ct.includes("https://www.w3.org/ns/activitystreams"))
  );
}

/** One inbox POST: the activity, the peer's answer and, when refused, why. */
function describePost(p) {
  let s = `POST ${p.path} ${p.activityType ?? "?"} ${p.activityId ?? ""} -> ${p.status}`;
  if (p.status >= 400) s += ` "${p.responseText}"`;
  if (p.signature == null && p.signatureInput == null) s += "; no Signature header";
  else if (p.httpSigError) s += `; ${p.httpSigError} (keyId ${p.signature?.keyId}, headers "${p.signature?.headers}")`;
  const reasons = p.log.filter((l) => /Failed|fail|error|not match|Invalid/i.test(l)).slice(0, 4);
  if (reasons.length > 0) s += `; Fedify: ${reasons.join(" | ")}`;
  return s;
}

/** What reached the peer's inboxes since `postsFrom`/`receivedFrom`, for a failure's details. */
function inboxReport(postsFrom, receivedFrom) {
  const posts = inboxPosts.slice(postsFrom);
  const got = received.slice(receivedFrom);
  const parts = [];
  if (posts.length === 0) parts.push("no POST reached the peer's inboxes");
  for (const p of posts) parts.push(describePost(p));
  if (got.length > 0) {
    parts.push(`verified activities: ${got.map((e) => `${e.type} ${e.id} by ${e.actorId} (object ${e.objectId})`).join(", ")}`);
  }
  if (refusedFetches.length > 0) parts.push(`non-loopback fetches refused: ${refusedFetches.join(", ")}`);
  if (inboxErrors.length > 0) parts.push(`inbox listener errors: ${inboxErrors.slice(-2).join(" | ")}`);
  return parts.join("; ");
}

/** The independent HTTP-signature check of a verified activity: which key signed its POST. */
function signatureOf(entry) {
  const posts = inboxPosts.filter((p) => p.activityId != null && p.activityId === entry.id);
  return posts.find((p) => p.status != null && p.status < 300) ?? posts[0] ?? null;
}

function checkSignedBy(c, entry, actorId, what) {
  const post = signatureOf(entry);
  c.check(
    post != null && post.httpSigKeyId != null && post.httpSigOwner === actorId,
    `${what} carried an HTTP signature (${post?.signature?.headers ?? post?.signatureInput ?? "?"}) by a key of ${actorId}`,
    () =>
      post == null
        ? "no inbox POST with that activity id was seen"
        : `key ${post.httpSigKeyId} owned by ${post.httpSigOwner}; ${post.httpSigError ?? ""}; ` +
          `keyId ${post.signature?.keyId}; Fedify verified it otherwise (Linked Data signature or proof)`,
  );
}

/** Sends an activity from the peer, now, and answers the error's text if it failed. */
async function send(ctx, recipients, activity, options = {}) {
  try {
    await ctx.sendActivity({ identifier: PEER_ID }, recipients, activity, { immediate: true, ...options });
    return null;
  } catch (error) {
    return String(error?.message ?? error);
  }
}

/**
 * Sends an activity to the peer's followers through Fedify's fan-out (shared inboxes preferred),
 * which queues the delivery (Fedify 1.5 does not honour `immediate` for "followers"), and waits
 * for the POST to fedblog to end. Answers `{ ok, details }`, `details` naming what went wrong.
 */
async function sendToFollowers(ctx, activity) {
  const outFrom = outgoing.length;
  const errorsFrom = outboxErrors.length;
  const error = await send(ctx, "followers", activity, { preferSharedInbox: true });
  const delivery = await poll(() =>
    outgoing
      .slice(outFrom)
      .find((o) => o.method === "POST" && o.url.startsWith(`${FEDBLOG_BASE}/`) && (o.status != null || o.error != null)));
  return {
    ok: error == null && delivery != null && delivery.status >= 200 && delivery.status < 300,
    delivery,
    details: () =>
      `${error ?? (delivery == null ? `no delivery to fedblog within ${WAIT_MS / 1000} s` : `${delivery.status ?? delivery.error}`)}; ` +
      `${lastDelivery(outFrom)}; ${outboxErrors.slice(errorsFrom).map((e) => e.error).join(" | ")}`,
  };
}

/** The Mention tags of a Note, as `href`s. */
async function mentionsOf(ctx, note) {
  const hrefs = [];
  try {
    for await (const tag of note.getTags(ctx)) if (tag instanceof Mention) hrefs.push(tag.href?.href ?? null);
  } catch (error) {
    hrefs.push(String(error));
  }
  return hrefs;
}

/** A Document's (or Link's) URL, whichever form `url` takes. */
function urlOf(value) {
  if (value == null) return null;
  if (value instanceof URL) return value.href;
  return value.href?.href ?? null; // a Link
}

function lastDelivery(from) {
  const posts = outgoing.slice(from).filter((o) => o.method === "POST");
  return posts.length === 0
    ? "no POST was made"
    : posts.map((o) => `POST ${o.url} -> ${o.status ?? o.error}`).join(", ");
}

async function runScenario() {
  const c = scenarioCheck();
  const ctx = federation.createContext(new URL(ORIGIN), undefined);
  const peerUri = ctx.getActorUri(PEER_ID);
  const s = {}; // what the steps found, for the steps after them
  let current = "setup";

  const overall = setTimeout(() => {
    c.notOk(`the scenario finishes within ${OVERALL_TIMEOUT_MS / 1000} s`, `still in ${current}`);
    console.log(`${c.total} checks, ${c.failed} failed`);
    process.exit(1);
  }, OVERALL_TIMEOUT_MS);

  const aliceAcct = `${FEDBLOG_USER}@${FEDBLOG_DOMAIN}`;

  const steps = [
    {
      name: `step 1: discover ${aliceAcct}`,
      needs: [],
      async run() {
        const wfUrl = `${FEDBLOG_BASE}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${aliceAcct}`)}`;
        let wf;
        try {
          const r = await nativeFetch(wfUrl, { headers: { accept: "application/jrd+json" } });
          wf = { status: r.status, contentType: r.headers.get("content-type") ?? "", text: await r.text() };
        } catch (error) {
          wf = { status: 0, contentType: "", text: `request failed: ${error?.cause ?? error}` };
        }
        let jrd = null;
        try {
          jrd = JSON.parse(wf.text);
        } catch {
          // reported below
        }
        if (!c.check(wf.status === 200 && jrd != null, `WebFinger acct:${aliceAcct} answers 200 with JSON`, () => `${wf.status}: ${wf.text.slice(0, 300)}`)) {
          throw new StepStopped();
        }
        c.check(jrd.subject === `acct:${aliceAcct}`, "WebFinger subject is the acct: URI", () => `subject ${JSON.stringify(jrd.subject)}`);
        const self = (jrd.links ?? []).find(
          (l) => l.rel === "self" && /^application\/(activity\+json|ld\+json)/.test(l.type ?? ""),
        );
        if (!c.check(self?.href != null, "WebFinger has a self link of type application/activity+json", () => JSON.stringify(jrd.links))) {
          throw new StepStopped();
        }

        // Fedify's own handle lookup (WebFinger, then the actor).
        let actor = null;
        let lookupError = null;
        try {
          actor = await ctx.lookupObject(aliceAcct);
        } catch (error) {
          lookupError = String(error);
        }
        const got = outgoing.filter((o) => o.url.startsWith(FEDBLOG_BASE)).slice(-3);
        if (
          !c.check(
            isActor(actor) && actor.id?.href === self.href,
            `Fedify's lookupObject("${aliceAcct}") finds an actor whose id is the self link ${self.href}`,
            () =>
              lookupError ??
              (actor == null
                ? `nothing found; last requests: ${got.map((o) => `${o.method} ${o.url} -> ${o.status ?? o.error}`).join(", ")}`
                : `got ${actor.constructor.name} ${actor.id?.href}`),
          )
        ) {
          throw new StepStopped();
        }

        const raw = await getActivityJson(actor.id.href);
        c.check(
          raw.status === 200 && isActivityJson(raw.contentType),
          "GET of alice's actor with Accept: application/activity+json answers 200 as application/activity+json",
          () => `${raw.status}, Content-Type ${JSON.stringify(raw.contentType)}`,
        );
        c.check(
          raw.json?.id === actor.id.href && raw.json?.preferredUsername === FEDBLOG_USER,
          "the actor document names itself and its preferredUsername",
          () => `id ${raw.json?.id}, preferredUsername ${raw.json?.preferredUsername}`,
        );
        const inboxOk = c.check(actor.inboxId != null, "the actor has an inbox", () => raw.text.slice(0, 300));
        const sharedInbox = actor.endpoints?.sharedInbox ?? null;
        c.check(sharedInbox != null, "the actor has endpoints.sharedInbox", () => JSON.stringify(raw.json?.endpoints));
        let key = null;
        let keyError = null;
        try {
          key = await actor.getPublicKey(ctx);
        } catch (error) {
          keyError = String(error);
        }
        const keyOk = c.check(
          key?.publicKey != null && key.ownerId?.href === actor.id.href,
          "the actor has a publicKey (RSA PEM) owned by itself",
          () => keyError ?? `publicKey ${JSON.stringify(raw.json?.publicKey)?.slice(0, 200)}`,
        );
        c.check(actor.followersId != null, "the actor has a followers collection", () => "no followers");
        if (!inboxOk || !keyOk) throw new StepStopped();
        s.alice = actor;
        s.aliceId = actor.id.href;
      },
    },
    {
      name: "step 2: the peer follows alice",
      needs: ["alice"],
      async run() {
        const me = await api("GET", "/api/v1/accounts/verify_credentials");
        if (c.check(me.status === 200 && me.body?.id != null, "GET /api/v1/accounts/verify_credentials answers alice's account", () => describeResponse(me))) {
          s.aliceAccountId = me.body.id;
        }
        const uuid = randomUUID();
        const follow = new Follow({
          id: ctx.getObjectUri(Follow, { identifier: PEER_ID, id: uuid }),
          actor: peerUri,
          object: s.alice.id,
        });
        follows.set(uuid, follow);
        const postsFrom = inboxPosts.length;
        const receivedFrom = received.length;
        const outFrom = outgoing.length;
        const error = await send(ctx, s.alice, follow);
        if (!c.check(error == null, `alice's inbox ${s.alice.inboxId.href} takes the peer's signed Follow`, () => `${error}; ${lastDelivery(outFrom)}`)) {
          throw new StepStopped();
        }
        const accept = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Accept" && e.objectId === follow.id.href));
        if (
          !c.check(
            accept != null,
            `a verified Accept of the Follow arrives within ${WAIT_MS / 1000} s`,
            () => inboxReport(postsFrom, receivedFrom),
          )
        ) {
          throw new StepStopped();
        }
        c.check(accept.actorId === s.aliceId, "the Accept's actor is alice", () => `actor ${accept.actorId}`);
        checkSignedBy(c, accept, s.aliceId, "the Accept");
        s.peerFollowsAlice = true;
        if (s.aliceAccountId == null) return;
        let last = null;
        const listed = await poll(async () => {
          last = await api("GET", `/api/v1/accounts/${s.aliceAccountId}/followers`);
          return last.status === 200 && Array.isArray(last.body) && last.body.find((a) => a.acct === PEER_ACCT);
        });
        c.check(
          listed,
          `GET /api/v1/accounts/:id/followers lists ${PEER_ACCT}`,
          () => (last.status === 200 ? `accts: ${JSON.stringify(last.body.map((a) => a.acct))}` : describeResponse(last)),
        );
        if (listed) s.peerAccountId = listed.id;
      },
    },
    {
      name: "step 3: alice posts, the peer receives it",
      needs: ["peerFollowsAlice"],
      async run() {
        const text = "Hello peer from fedblog #fedify";
        const postsFrom = inboxPosts.length;
        const receivedFrom = received.length;
        const posted = await api("POST", "/api/v1/statuses", { json: { status: text, visibility: "public" } });
        if (!c.check(posted.status === 200 && posted.body?.id != null, "POST /api/v1/statuses posts alice's status", () => describeResponse(posted))) {
          throw new StepStopped();
        }
        s.status = posted.body;
        const create = await poll(() =>
          received
            .slice(receivedFrom)
            .find((e) => e.type === "Create" && e.object instanceof Note && textOf(e.object.content).includes("Hello peer from fedblog")));
        if (
          !c.check(
            create != null,
            `a verified Create of a Note "${text}" arrives within ${WAIT_MS / 1000} s`,
            () => inboxReport(postsFrom, receivedFrom),
          )
        ) {
          throw new StepStopped();
        }
        const note = create.object;
        console.log(`# the Create arrived at the peer's ${create.inbox}`);
        c.check(create.actorId === s.aliceId, "the Create's actor is alice", () => `actor ${create.actorId}`);
        checkSignedBy(c, create, s.aliceId, "the Create");
        c.check(
          textOf(note.content) === text,
          "the Note's content is the status's text",
          () => `content ${JSON.stringify(note.content?.toString())}`,
        );
        c.check(
          note.id?.href === s.status.uri,
          "the Note's id is the status's uri in the client API",
          () => `Note id ${note.id?.href}, status uri ${s.status.uri}`,
        );
        c.check(
          note.attributionId?.href === s.aliceId,
          "the Note's attributedTo is alice's actor",
          () => `attributedTo ${note.attributionId?.href}`,
        );
        const to = note.toIds.map((u) => u.href);
        const cc = note.ccIds.map((u) => u.href);
        c.check(to.includes(PUBLIC_COLLECTION.href), "the Note's to has the Public collection", () => `to ${JSON.stringify(to)}`);
        c.check(
          s.alice.followersId != null && cc.includes(s.alice.followersId.href),
          "the Note's cc has alice's followers collection",
          () => `cc ${JSON.stringify(cc)}, followers ${s.alice.followersId?.href}`,
        );
        let tags = [];
        try {
          for await (const tag of note.getTags(ctx)) tags.push(tag);
        } catch (error) {
          tags = [String(error)];
        }
        c.check(
          tags.some((t) => t instanceof Hashtag && String(t.name).toLowerCase() === "#fedify"),
          "the Note carries a Hashtag tag #fedify",
          () => `tags ${JSON.stringify(tags.map((t) => (t instanceof Hashtag ? `Hashtag ${t.name}` : String(t?.constructor?.name ?? t))))}`,
        );
        if (note.id == null) throw new StepStopped();
        const deref = await getActivityJson(note.id.href);
        c.check(
          deref.status === 200 && isActivityJson(deref.contentType),
          "GET of the Note's id with Accept: application/activity+json answers 200 as application/activity+json",
          () => `${deref.status}, Content-Type ${JSON.stringify(deref.contentType)}: ${deref.text.slice(0, 200)}`,
        );
        c.check(
          deref.json?.type === "Note" && deref.json?.id === note.id.href && deref.json?.content === note.content?.toString(),
          "the dereferenced Note has the same type, id and content as the delivered one",
          () => `type ${deref.json?.type}, id ${deref.json?.id}, content ${JSON.stringify(deref.json?.content)} vs ${JSON.stringify(note.content?.toString())}`,
        );
        s.note = note;
      },
    },
    {
      name: "step 4: the peer replies to and likes alice's status",
      needs: ["note", "status"],
      async run() {
        const noteUuid = randomUUID();
        const replyId = ctx.getObjectUri(Note, { identifier: PEER_ID, id: noteUuid });
        const followersUri = ctx.getFollowersUri(PEER_ID);
        const now = Temporal.Now.instant();
        const aliceUrl = s.alice.url instanceof URL ? s.alice.url.href : s.aliceId;
        const reply = new Note({
          id: replyId,
          attribution: peerUri,
          content:
            `<p><span class="h-card"><a href="${aliceUrl}" class="u-url mention">@<span>${FEDBLOG_USER}</span></a></span> ` +
            "Hello back from the Fedify peer</p>",
          replyTarget: s.note.id,
          tos: [PUBLIC_COLLECTION],
          ccs: [s.alice.id, followersUri],
          tags: [new Mention({ href: s.alice.id, name: `@${FEDBLOG_USER}@${FEDBLOG_DOMAIN}` })],
          published: now,
          url: replyId,
        });
        notes.set(noteUuid, reply);
        const create = new Create({
          id: new URL(`${replyId.href}/activity`),
          actor: peerUri,
          object: reply,
          tos: [PUBLIC_COLLECTION],
          ccs: [s.alice.id, followersUri],
          published: now,
        });
        const likeUuid = randomUUID();
        const like = new Like({
          id: ctx.getObjectUri(Like, { identifier: PEER_ID, id: likeUuid }),
          actor: peerUri,
          object: s.note.id,
        });
        likes.set(likeUuid, like);
        let outFrom = outgoing.length;
        let error = await send(ctx, s.alice, create);
        c.check(error == null, "alice's inbox takes the peer's signed Create of a reply mentioning her", () => `${error}; ${lastDelivery(outFrom)}`);
        outFrom = outgoing.length;
        error = await send(ctx, s.alice, like);
        const likeSent = c.check(error == null, "alice's inbox takes the peer's signed Like of her Note", () => `${error}; ${lastDelivery(outFrom)}`);
        if (likeSent) s.like = like;

        let last = null;
        const found = { favourite: null, mention: null };
        await poll(async () => {
          last = await api("GET", "/api/v1/notifications", { query: [["limit", "40"]] });
          if (last.status !== 200 || !Array.isArray(last.body)) return false;
          found.favourite ??= last.body.find(
            (n) => n.type === "favourite" && n.account?.acct === PEER_ACCT && n.status?.id === s.status.id);
          found.mention ??= last.body.find(
            (n) => n.type === "mention" && n.account?.acct === PEER_ACCT && n.status?.in_reply_to_id === s.status.id);
          return found.favourite && found.mention;
        });
        const seen = () =>
          last.status === 200 && Array.isArray(last.body)
            ? `notifications: ${JSON.stringify(last.body.map((n) => `${n.type} from ${n.account?.acct} on ${n.status?.id} (in reply to ${n.status?.in_reply_to_id})`))}`
            : describeResponse(last);
        c.check(found.favourite != null, `GET /api/v1/notifications has a favourite from ${PEER_ACCT} on alice's status`, seen);
        c.check(
          found.mention != null,
          `GET /api/v1/notifications has a mention from ${PEER_ACCT} whose status is in reply to alice's status`,
          seen,
        );
        const replyStatusId = found.mention?.status?.id ?? null;

        let ctxResponse = null;
        const inContext = await poll(async () => {
          ctxResponse = await api("GET", `/api/v1/statuses/${s.status.id}/context`);
          return (
            ctxResponse.status === 200 &&
            Array.isArray(ctxResponse.body?.descendants) &&
            ctxResponse.body.descendants.find(
              (d) => d.uri === replyId.href || (replyStatusId != null && d.id === replyStatusId))
          );
        });
        c.check(
          inContext,
          "GET /api/v1/statuses/:id/context lists the peer's reply in descendants",
          () =>
            ctxResponse.status === 200
              ? `descendants: ${JSON.stringify((ctxResponse.body?.descendants ?? []).map((d) => `${d.id} ${d.uri} by ${d.account?.acct}`))}`
              : describeResponse(ctxResponse),
        );
        if (inContext) s.peerReply = { id: replyId, uuid: noteUuid, statusId: inContext.id };

        if (likeSent) {
          let st = null;
          const counted = await poll(async () => {
            st = await api("GET", `/api/v1/statuses/${s.status.id}`);
            return st.status === 200 && st.body?.favourites_count === 1;
          });
          c.check(counted, "alice's status has favourites_count 1 after the Like", () =>
            st.status === 200 ? `favourites_count ${st.body?.favourites_count}` : describeResponse(st));
          if (!counted) s.like = null;
        }
      },
    },
    {
      name: "step 5: alice follows the peer back",
      needs: ["alice"],
      async run() {
        const postsFrom = inboxPosts.length;
        const receivedFrom = received.length;
        const acceptsFrom = acceptsSent.length;
        const followed = await api("POST", "/api/v1/follows", { json: { uri: PEER_ACCT } });
        if (
          !c.check(
            followed.status === 200 && followed.body?.acct === PEER_ACCT,
            `POST /api/v1/follows with uri=${PEER_ACCT} answers the peer's account`,
            () => describeResponse(followed),
          )
        ) {
          throw new StepStopped();
        }
        s.peerAccountId = followed.body.id;
        const follow = await poll(() =>
          received
            .slice(receivedFrom)
            .find((e) => e.type === "Follow" && e.actorId === s.aliceId && e.objectId === peerUri.href));
        if (
          !c.check(
            follow != null,
            `a verified Follow from alice to the peer arrives within ${WAIT_MS / 1000} s`,
            () => inboxReport(postsFrom, receivedFrom),
          )
        ) {
          throw new StepStopped();
        }
        checkSignedBy(c, follow, s.aliceId, "the Follow");
        const accepted = await poll(() => acceptsSent.slice(acceptsFrom).find((a) => a.followId === follow.id && (a.ok || a.error)), 5_000);
        c.check(
          accepted?.ok === true,
          `the peer's signed Accept is taken by alice's inbox ${accepted?.to ?? ""}`.trim(),
          () => accepted?.error ?? "the peer did not get to sending its Accept",
        );
        let last = null;
        const following = await poll(async () => {
          last = await api("GET", "/api/v1/accounts/relationships", { query: [["id[]", s.peerAccountId]] });
          return last.status === 200 && Array.isArray(last.body) &&
            last.body.find((r) => r.id === s.peerAccountId && r.following === true);
        });
        c.check(
          following,
          "GET /api/v1/accounts/relationships shows alice following the peer",
          () => (last.status === 200 ? `relationships ${JSON.stringify(last.body)}` : describeResponse(last)),
        );
        if (following) s.aliceFollowsPeer = true;
      },
    },
    {
      name: "step 6: the peer posts to its followers",
      needs: ["aliceFollowsPeer"],
      async run() {
        const text = `Hello fedblog from the Fedify peer ${randomUUID().slice(0, 8)}`;
        const uuid = randomUUID();
        const noteId = ctx.getObjectUri(Note, { identifier: PEER_ID, id: uuid });
        const followersUri = ctx.getFollowersUri(PEER_ID);
        const now = Temporal.Now.instant();
        const note = new Note({
          id: noteId,
          attribution: peerUri,
          content: `<p>${text}</p>`,
          tos: [PUBLIC_COLLECTION],
          ccs: [followersUri],
          published: now,
          url: noteId,
        });
        notes.set(uuid, note);
        const create = new Create({
          id: new URL(`${noteId.href}/activity`),
          actor: peerUri,
          object: note,
          tos: [PUBLIC_COLLECTION],
          ccs: [followersUri],
          published: now,
        });
        c.check(
          followers.has(s.aliceId),
          "alice is in the peer's followers",
          () => `followers ${JSON.stringify([...followers.keys()])}`,
        );
        const sent = await sendToFollowers(ctx, create);
        const sharedInbox = s.alice.endpoints?.sharedInbox?.href ?? null;
        c.check(
          sent.ok,
          `the peer's signed Create to its followers is taken by ${sent.delivery?.url ?? "fedblog"}` +
            (sharedInbox != null && sent.delivery?.url === sharedInbox ? " (alice's shared inbox)" : ""),
          sent.details,
        );
        let last = null;
        const shown = await poll(async () => {
          last = await api("GET", "/api/v1/timelines/home", { query: [["limit", "40"]] });
          return last.status === 200 && Array.isArray(last.body) &&
            last.body.find((st) => st.account?.acct === PEER_ACCT && textOf(st.content).includes(text));
        });
        c.check(
          shown,
          `GET /api/v1/timelines/home shows the peer's post by ${PEER_ACCT}`,
          () =>
            last.status === 200
              ? `home: ${JSON.stringify(last.body.slice(0, 10).map((st) => `${st.account?.acct}: ${textOf(st.content).slice(0, 60)}`))}`
              : describeResponse(last),
        );
        if (shown) {
          c.check(shown.uri === noteId.href, "the home timeline's status has the Note's id as its uri", () => `uri ${shown.uri}`);
          s.peerPost = { uuid, note, text, statusId: shown.id };
        }
      },
    },
    {
      name: "step 7: the peer undoes its Like",
      needs: ["like", "status"],
      async run() {
        const undo = new Undo({
          id: new URL(`${s.like.id.href}#undo`),
          actor: peerUri,
          object: s.like,
        });
        const outFrom = outgoing.length;
        const error = await send(ctx, s.alice, undo);
        if (!c.check(error == null, "alice's inbox takes the peer's signed Undo of its Like", () => `${error}; ${lastDelivery(outFrom)}`)) {
          throw new StepStopped();
        }
        let st = null;
        const dropped = await poll(async () => {
          st = await api("GET", `/api/v1/statuses/${s.status.id}`);
          return st.status === 200 && st.body?.favourites_count === 0;
        });
        c.check(dropped, "alice's status's favourites_count drops back to 0", () =>
          st.status === 200 ? `favourites_count ${st.body?.favourites_count}` : describeResponse(st));
      },
    },
    {
      name: "step 8: a thread: alice replies to the peer's reply, the peer replies to hers",
      needs: ["status", "peerReply"],
      async run() {
        const marker = `Thanks for the reply, peer ${randomUUID().slice(0, 8)}`;
        const text = `@${PEER_ACCT} ${marker}`;
        const postsFrom = inboxPosts.length;
        const receivedFrom = received.length;
        const posted = await api("POST", "/api/v1/statuses", {
          json: { status: text, visibility: "public", in_reply_to_id: s.peerReply.statusId },
        });
        if (
          !c.check(
            posted.status === 200 && posted.body?.id != null && posted.body?.in_reply_to_id === s.peerReply.statusId,
            "POST /api/v1/statuses with in_reply_to_id = the peer's reply posts alice's reply to it",
            () => describeResponse(posted),
          )
        ) {
          throw new StepStopped();
        }
        const aliceReply = posted.body;
        const create = await poll(() =>
          received
            .slice(receivedFrom)
            .find((e) => e.type === "Create" && e.object instanceof Note && textOf(e.object.content).includes(marker)));
        if (
          !c.check(
            create != null,
            `a verified Create of alice's reply arrives within ${WAIT_MS / 1000} s`,
            () => inboxReport(postsFrom, receivedFrom),
          )
        ) {
          throw new StepStopped();
        }
        const note = create.object;
        c.check(create.actorId === s.aliceId, "the reply's Create's actor is alice", () => `actor ${create.actorId}`);
        checkSignedBy(c, create, s.aliceId, "the Create of alice's reply");
        c.check(
          note.id?.href === aliceReply.uri,
          "the reply Note's id is the reply's uri in the client API",
          () => `Note id ${note.id?.href}, status uri ${aliceReply.uri}`,
        );
        c.check(
          note.replyTargetId?.href === s.peerReply.id.href,
          "the reply Note's inReplyTo is the peer's Note",
          () => `inReplyTo ${note.replyTargetId?.href}, the peer's Note ${s.peerReply.id.href}`,
        );
        const mentioned = await mentionsOf(ctx, note);
        c.check(
          mentioned.includes(peerUri.href),
          "the reply Note carries a Mention of the peer",
          () => `Mention hrefs ${JSON.stringify(mentioned)}`,
        );
        const wantAncestors = [s.status.id, s.peerReply.statusId];
        const ctxReply = await api("GET", `/api/v1/statuses/${aliceReply.id}/context`);
        const ancestors = ctxReply.status === 200 && Array.isArray(ctxReply.body?.ancestors) ? ctxReply.body.ancestors : null;
        c.check(
          ancestors != null && JSON.stringify(ancestors.map((a) => a.id)) === JSON.stringify(wantAncestors),
          "GET /api/v1/statuses/:id/context of alice's reply lists alice's status, then the peer's reply, as its ancestors",
          () =>
            ancestors != null
              ? `ancestors ${JSON.stringify(ancestors.map((a) => `${a.id} ${a.uri} by ${a.account?.acct}`))}, expected ids ${JSON.stringify(wantAncestors)}`
              : describeResponse(ctxReply),
        );

        // The peer answers alice's reply: alice's post -> the peer's reply -> alice's reply -> this.
        const uuid = randomUUID();
        const replyId = ctx.getObjectUri(Note, { identifier: PEER_ID, id: uuid });
        const followersUri = ctx.getFollowersUri(PEER_ID);
        const now = Temporal.Now.instant();
        const aliceUrl = s.alice.url instanceof URL ? s.alice.url.href : s.aliceId;
        const reply = new Note({
          id: replyId,
          attribution: peerUri,
          content:
            `<p><span class="h-card"><a href="${aliceUrl}" class="u-url mention">@<span>${FEDBLOG_USER}</span></a></span> ` +
            "You are welcome, from the Fedify peer</p>",
          replyTarget: note.id,
          tos: [PUBLIC_COLLECTION],
          ccs: [s.alice.id, followersUri],
          tags: [new Mention({ href: s.alice.id, name: `@${FEDBLOG_USER}@${FEDBLOG_DOMAIN}` })],
          published: now,
          url: replyId,
        });
        notes.set(uuid, reply);
        const outFrom = outgoing.length;
        const error = await send(
          ctx,
          s.alice,
          new Create({
            id: new URL(`${replyId.href}/activity`),
            actor: peerUri,
            object: reply,
            tos: [PUBLIC_COLLECTION],
            ccs: [s.alice.id, followersUri],
            published: now,
          }),
        );
        if (!c.check(error == null, "alice's inbox takes the peer's signed Create of a reply to alice's reply", () => `${error}; ${lastDelivery(outFrom)}`)) {
          throw new StepStopped();
        }
        const wantDescendants = [s.peerReply.id.href, aliceReply.uri, replyId.href];
        let last = null;
        const inOrder = await poll(async () => {
          last = await api("GET", `/api/v1/statuses/${s.status.id}/context`);
          return (
            last.status === 200 &&
            Array.isArray(last.body?.descendants) &&
            JSON.stringify(last.body.descendants.map((d) => d.uri)) === JSON.stringify(wantDescendants)
          );
        });
        c.check(
          inOrder,
          "GET /api/v1/statuses/:id/context of alice's first status lists the peer's reply, alice's reply and the peer's second reply as descendants, in that order",
          () =>
            last.status === 200
              ? `descendants ${JSON.stringify((last.body?.descendants ?? []).map((d) => `${d.id} ${d.uri} by ${d.account?.acct} in reply to ${d.in_reply_to_id}`))}, expected uris ${JSON.stringify(wantDescendants)}`
              : describeResponse(last),
        );
        if (inOrder) {
          const third = last.body.descendants[2];
          c.check(
            third.in_reply_to_id === aliceReply.id && third.account?.acct === PEER_ACCT,
            "the peer's second reply is by the peer, in reply to alice's reply",
            () => `by ${third.account?.acct}, in_reply_to_id ${third.in_reply_to_id}, alice's reply ${aliceReply.id}`,
          );
        }
      },
    },
    {
      name: "step 9: alice posts an image, the peer receives it",
      needs: ["peerFollowsAlice"],
      async run() {
        const tag = randomUUID().slice(0, 8);
        const png = makePng(4, [200, 40, 90]);
        const description = `A 4x4 gradient from fedblog ${tag}`;
        const form = new FormData();
        form.append("file", new Blob([png], { type: "image/png" }), "gradient.png");
        form.append("description", description);
        const uploaded = await api("POST", "/api/v2/media", { form });
        if (
          !c.check(
            (uploaded.status === 200 || uploaded.status === 202) && uploaded.body?.id != null && uploaded.body?.type === "image",
            `POST /api/v2/media (multipart) takes a 4x4 PNG of ${png.length} bytes as an image`,
            () => describeResponse(uploaded),
          )
        ) {
          throw new StepStopped();
        }
        c.check(
          uploaded.body.description === description,
          "the uploaded media has the description it was given",
          () => `description ${JSON.stringify(uploaded.body.description)}`,
        );
        const text = `A picture for the peer ${tag}`;
        const postsFrom = inboxPosts.length;
        const receivedFrom = received.length;
        const posted = await api("POST", "/api/v1/statuses", {
          json: { status: text, visibility: "public", media_ids: [uploaded.body.id] },
        });
        const attached = posted.body?.media_attachments?.[0] ?? null;
        if (
          !c.check(
            posted.status === 200 && posted.body?.media_attachments?.length === 1 && attached?.id === uploaded.body.id && attached?.url != null,
            "POST /api/v1/statuses with media_ids posts alice's status with the image attached",
            () => describeResponse(posted),
          )
        ) {
          throw new StepStopped();
        }
        const create = await poll(() =>
          received
            .slice(receivedFrom)
            .find((e) => e.type === "Create" && e.object instanceof Note && textOf(e.object.content).includes(text)));
        if (
          !c.check(
            create != null,
            `a verified Create of a Note "${text}" arrives within ${WAIT_MS / 1000} s`,
            () => inboxReport(postsFrom, receivedFrom),
          )
        ) {
          throw new StepStopped();
        }
        checkSignedBy(c, create, s.aliceId, "the Create of the post with an image");
        const attachments = [];
        try {
          for await (const a of create.object.getAttachments(ctx)) attachments.push(a);
        } catch (error) {
          attachments.push(String(error));
        }
        const raw = signatureOf(create)?.json?.object?.attachment;
        if (
          !c.check(
            attachments.length === 1 && attachments[0] instanceof Document,
            "the Note has one attachment, a Document (or Image)",
            () => `attachments ${JSON.stringify(attachments.map((a) => a?.constructor?.name ?? String(a)))}; as sent: ${JSON.stringify(raw)}`,
          )
        ) {
          throw new StepStopped();
        }
        const doc = attachments[0];
        const docUrl = urlOf(doc.url);
        c.check(
          docUrl === attached.url,
          "the attachment's url is the media's url in the client API",
          () => `url ${docUrl}, the client API's ${attached.url}`,
        );
        c.check(doc.mediaType === "image/png", "the attachment's mediaType is image/png", () => `mediaType ${doc.mediaType}`);
        c.check(
          doc.name?.toString() === description,
          "the attachment's name is the media's description",
          () => `name ${JSON.stringify(doc.name?.toString())}`,
        );
        c.check(
          doc.width === 4 && doc.height === 4,
          "the attachment's width and height are the image's, 4x4",
          () => `width ${doc.width}, height ${doc.height}; as sent: ${JSON.stringify(raw)}`,
        );
        if (docUrl == null) return;
        const file = await getFile(docUrl);
        const isPng =
          file.bytes.length > 24 &&
          file.bytes.subarray(0, 8).equals(PNG_SIGNATURE) &&
          file.bytes.readUInt32BE(16) === 4 &&
          file.bytes.readUInt32BE(20) === 4;
        c.check(
          file.status === 200 && file.contentType.toLowerCase().startsWith("image/png") && isPng,
          "GET of the attachment's url answers 200 with a 4x4 PNG as image/png",
          () =>
            `${file.status} ${file.error ?? ""}, Content-Type ${JSON.stringify(file.contentType)}, ${file.bytes.length} bytes ` +
            `starting ${file.bytes.subarray(0, 24).toString("hex")}`,
        );
      },
    },
    {
      name: "step 10: the peer posts an image to its followers",
      needs: ["aliceFollowsPeer"],
      async run() {
        const tag = randomUUID().slice(0, 8);
        const path = `/media/${tag}.png`;
        media.set(path, { bytes: makePng(4, [20, 120, 220]), type: "image/png" });
        const mediaUrl = new URL(path, ORIGIN);
        const name = `A 4x4 gradient from the Fedify peer ${tag}`;
        const text = `A picture for fedblog from the Fedify peer ${tag}`;
        const uuid = randomUUID();
        const noteId = ctx.getObjectUri(Note, { identifier: PEER_ID, id: uuid });
        const followersUri = ctx.getFollowersUri(PEER_ID);
        const now = Temporal.Now.instant();
        const note = new Note({
          id: noteId,
          attribution: peerUri,
          content: `<p>${text}</p>`,
          attachments: [new Document({ url: mediaUrl, mediaType: "image/png", name, width: 4, height: 4 })],
          tos: [PUBLIC_COLLECTION],
          ccs: [followersUri],
          published: now,
          url: noteId,
        });
        notes.set(uuid, note);
        const sent = await sendToFollowers(
          ctx,
          new Create({
            id: new URL(`${noteId.href}/activity`),
            actor: peerUri,
            object: note,
            tos: [PUBLIC_COLLECTION],
            ccs: [followersUri],
            published: now,
          }),
        );
        c.check(sent.ok, `the peer's signed Create of a Note with an image is taken by ${sent.delivery?.url ?? "fedblog"}`, sent.details);
        let last = null;
        const shown = await poll(async () => {
          last = await api("GET", "/api/v1/timelines/home", { query: [["limit", "40"]] });
          return last.status === 200 && Array.isArray(last.body) &&
            last.body.find((st) => st.account?.acct === PEER_ACCT && textOf(st.content).includes(text));
        });
        if (
          !c.check(
            shown,
            `GET /api/v1/timelines/home shows the peer's post with an image by ${PEER_ACCT}`,
            () =>
              last.status === 200
                ? `home: ${JSON.stringify(last.body.slice(0, 10).map((st) => `${st.account?.acct}: ${textOf(st.content).slice(0, 60)}`))}`
                : describeResponse(last),
          )
        ) {
          throw new StepStopped();
        }
        const attached = shown.media_attachments ?? [];
        if (
          !c.check(
            attached.length === 1,
            "the status has one media attachment",
            () => `media_attachments ${JSON.stringify(attached)}`,
          )
        ) {
          throw new StepStopped();
        }
        const m = attached[0];
        c.check(
          m.remote_url === mediaUrl.href || m.url === mediaUrl.href,
          "the media attachment's remote_url (or url) is the peer's image URL",
          () => `url ${m.url}, remote_url ${m.remote_url}, the peer's ${mediaUrl.href}`,
        );
        c.check(
          m.type === "image" && m.description === name,
          "the media attachment is an image whose description is the Document's name",
          () => `type ${m.type}, description ${JSON.stringify(m.description)}`,
        );
        const fetched = mediaGets.filter((g) => g.path === path).length;
        console.log(`# fedblog fetched the peer's image ${fetched} time(s) (it shows remote media by URL)`);
      },
    },
    {
      name: "step 11: alice edits her status, the peer receives the Update",
      needs: ["status", "note"],
      async run() {
        const text = "Hello peer from fedblog #fedify, edited";
        const postsFrom = inboxPosts.length;
        const receivedFrom = received.length;
        const edited = await api("PUT", `/api/v1/statuses/${s.status.id}`, { json: { status: text } });
        if (
          !c.check(
            edited.status === 200 && textOf(edited.body?.content) === text && edited.body?.edited_at != null,
            "PUT /api/v1/statuses/:id edits alice's status (new text, edited_at set)",
            () => describeResponse(edited),
          )
        ) {
          throw new StepStopped();
        }
        const update = await poll(() =>
          received
            .slice(receivedFrom)
            .find((e) => e.type === "Update" && e.object instanceof Note && e.object.id?.href === s.status.uri));
        if (
          !c.check(
            update != null,
            `a verified Update of alice's Note arrives within ${WAIT_MS / 1000} s`,
            () => inboxReport(postsFrom, receivedFrom),
          )
        ) {
          throw new StepStopped();
        }
        const note = update.object;
        c.check(update.actorId === s.aliceId, "the Update's actor is alice", () => `actor ${update.actorId}`);
        checkSignedBy(c, update, s.aliceId, "the Update");
        c.check(
          textOf(note.content) === text,
          "the updated Note's content is the edited text",
          () => `content ${JSON.stringify(note.content?.toString())}`,
        );
        c.check(
          note.updated != null && (note.published == null || Temporal.Instant.compare(note.updated, note.published) > 0),
          "the updated Note has an updated time, after its published time",
          () => `updated ${note.updated}, published ${note.published}`,
        );
        const deref = await getActivityJson(s.status.uri);
        c.check(
          deref.status === 200 && textOf(deref.json?.content) === text,
          "GET of the Note's id now answers the edited content",
          () => `${deref.status}: content ${JSON.stringify(deref.json?.content)}`,
        );
      },
    },
    {
      name: "step 12: the peer edits its post",
      needs: ["peerPost", "aliceFollowsPeer"],
      async run() {
        const before = s.peerPost.text;
        const text = `${before}, edited`;
        const now = Temporal.Now.instant();
        const note = s.peerPost.note.clone({ content: `<p>${text}</p>`, updated: now });
        notes.set(s.peerPost.uuid, note);
        const followersUri = ctx.getFollowersUri(PEER_ID);
        const sent = await sendToFollowers(
          ctx,
          new Update({
            id: new URL(`${note.id.href}#updates/${randomUUID()}`),
            actor: peerUri,
            object: note,
            tos: [PUBLIC_COLLECTION],
            ccs: [followersUri],
            published: now,
          }),
        );
        c.check(sent.ok, `the peer's signed Update of its Note is taken by ${sent.delivery?.url ?? "fedblog"}`, sent.details);
        let last = null;
        const shown = await poll(async () => {
          last = await api("GET", `/api/v1/statuses/${s.peerPost.statusId}`);
          return last.status === 200 && textOf(last.body?.content) === text;
        });
        c.check(
          shown,
          "GET /api/v1/statuses/:id shows the peer's post with the edited text",
          () => (last.status === 200 ? `content ${JSON.stringify(last.body?.content)}` : describeResponse(last)),
        );
        c.check(
          last.status === 200 && last.body?.edited_at != null,
          "the peer's post has edited_at set",
          () => (last.status === 200 ? `edited_at ${JSON.stringify(last.body?.edited_at)}` : describeResponse(last)),
        );
        const history = await api("GET", `/api/v1/statuses/${s.peerPost.statusId}/history`);
        const versions = history.status === 200 && Array.isArray(history.body) ? history.body.map((h) => textOf(h.content)) : null;
        c.check(
          versions != null && versions.length === 2 && versions[0] === before && versions[1] === text,
          "GET /api/v1/statuses/:id/history has both versions, the first then the edited one",
          () => (versions != null ? `versions ${JSON.stringify(versions)}` : describeResponse(history)),
        );
      },
    },
    {
      name: "step 13: alice posts a poll, the peer receives a Question and votes",
      needs: ["peerFollowsAlice"],
      async run() {
        const options = [`tea ${randomUUID().slice(0, 6)}`, `coffee ${randomUUID().slice(0, 6)}`];
        const receivedFrom = received.length;
        const postsFrom = inboxPosts.length;
        const posted = await api("POST", "/api/v1/statuses", {
          json: { status: "A poll from fedblog", visibility: "public", poll: { options, expires_in: 3600 } },
        });
        if (!c.check(posted.status === 200 && posted.body?.poll?.id != null, "POST /api/v1/statuses posts alice's poll", () => describeResponse(posted))) {
          throw new StepStopped();
        }
        const create = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Create" && e.object instanceof Question && e.object.id?.href === posted.body.uri));
        if (!c.check(create != null, `a verified Create of a Question arrives within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, create, s.aliceId, "the Create of the Question");
        const question = create.object;
        const names = [];
        try {
          for await (const o of question.getExclusiveOptions(ctx)) names.push(String(o.name));
        } catch (error) {
          names.push(String(error));
        }
        c.check(
          JSON.stringify(names) === JSON.stringify(options) && question.inclusiveOptionIds.length === 0,
          "the Question's oneOf options are the poll's options, in order",
          () => `oneOf ${JSON.stringify(names)}`,
        );
        c.check(
          question.endTime != null && Math.abs(question.endTime.epochMilliseconds - Date.parse(posted.body.poll.expires_at)) < 1000,
          "the Question's endTime is the poll's expires_at",
          () => `endTime ${question.endTime}, expires_at ${posted.body.poll.expires_at}`,
        );
        const voteUuid = randomUUID();
        const voteId = ctx.getObjectUri(Note, { identifier: PEER_ID, id: voteUuid });
        const vote = new Note({ id: voteId, attribution: peerUri, name: options[1], replyTarget: question.id, tos: [s.alice.id] });
        notes.set(voteUuid, vote);
        const outFrom = outgoing.length;
        const updatesFrom = received.length;
        const error = await send(ctx, s.alice, new Create({ id: new URL(`${voteId.href}/activity`), actor: peerUri, object: vote, tos: [s.alice.id] }));
        c.check(error == null, "alice's inbox takes the peer's vote (a Create of a Note named after an option, inReplyTo the Question)", () => `${error}; ${lastDelivery(outFrom)}`);
        let last = null;
        const counted = await poll(async () => {
          last = await api("GET", `/api/v1/polls/${posted.body.poll.id}`);
          return last.status === 200 && last.body?.options?.[1]?.votes_count === 1 && last.body?.votes_count === 1;
        });
        c.check(
          counted && last.body.options[0].votes_count === 0,
          "GET /api/v1/polls/:id counts the peer's vote for the second option",
          () => describeResponse(last),
        );
        const context = await api("GET", `/api/v1/statuses/${posted.body.id}/context`);
        c.check(
          context.status === 200 && Array.isArray(context.body?.descendants) && context.body.descendants.length === 0,
          "the vote is not a reply in the poll's thread",
          () => describeResponse(context),
        );
        const update = await poll(() =>
          received.slice(updatesFrom).find((e) => e.type === "Update" && e.object instanceof Question && e.object.id?.href === posted.body.uri));
        let totals = null;
        if (update != null) {
          totals = [];
          for await (const o of update.object.getExclusiveOptions(ctx)) totals.push((await o.getReplies(ctx))?.totalItems ?? null);
        }
        c.check(
          totals != null && JSON.stringify(totals) === "[0,1]" && update.object.voters === 1,
          "a verified Update of the Question reaches the voter with the new totals (0 and 1, one voter)",
          () => (update == null ? `no Update within ${WAIT_MS / 1000} s; ${inboxReport(postsFrom, updatesFrom)}` : `totals ${JSON.stringify(totals)}, voters ${update.object.voters}`),
        );
      },
    },
    {
      name: "step 14: the peer posts a poll, alice votes, the peer's totals reach her",
      needs: ["aliceFollowsPeer"],
      async run() {
        const options = [`left ${randomUUID().slice(0, 6)}`, `right ${randomUUID().slice(0, 6)}`];
        const uuid = randomUUID();
        const questionId = ctx.getObjectUri(Question, { identifier: PEER_ID, id: uuid });
        const followersUri = ctx.getFollowersUri(PEER_ID);
        const now = Temporal.Now.instant();
        const ends = now.add({ hours: 1 });
        const make = (votes, voters) =>
          new Question({
            id: questionId,
            attribution: peerUri,
            content: "<p>A poll from the Fedify peer</p>",
            exclusiveOptions: options.map((name, i) => new Note({ name, replies: new Collection({ totalItems: votes[i] }) })),
            endTime: ends,
            voters,
            tos: [PUBLIC_COLLECTION],
            ccs: [followersUri],
            published: now,
            url: questionId,
          });
        questions.set(uuid, make([2, 0], 2));
        const sent = await sendToFollowers(
          ctx,
          new Create({ id: new URL(`${questionId.href}/activity`), actor: peerUri, object: questions.get(uuid), tos: [PUBLIC_COLLECTION], ccs: [followersUri], published: now }),
        );
        c.check(sent.ok, `the peer's signed Create of a Question is taken by ${sent.delivery?.url ?? "fedblog"}`, sent.details);
        let last = null;
        const shown = await poll(async () => {
          last = await api("GET", "/api/v1/timelines/home", { query: [["limit", "40"]] });
          return last.status === 200 && Array.isArray(last.body) && last.body.find((st) => st.uri === questionId.href);
        });
        if (!c.check(shown && shown.poll != null, "alice's home timeline shows the peer's Question as a status with a poll", () => describeResponse(last))) {
          throw new StepStopped();
        }
        c.check(
          JSON.stringify(shown.poll.options.map((o) => [o.title, o.votes_count])) === JSON.stringify([[options[0], 2], [options[1], 0]]) &&
            shown.poll.votes_count === 2 && shown.poll.multiple === false && Math.abs(Date.parse(shown.poll.expires_at) - ends.epochMilliseconds) < 1000,
          "the poll has the Question's options, totals and end (single choice: voters_count is null, as Mastodon gives it)",
          () => JSON.stringify(shown.poll),
        );
        const receivedFrom = received.length;
        const postsFrom = inboxPosts.length;
        const voted = await api("POST", `/api/v1/polls/${shown.poll.id}/votes`, { json: { choices: [1] } });
        c.check(
          voted.status === 200 && voted.body?.voted === true && JSON.stringify(voted.body?.own_votes) === "[1]",
          "POST /api/v1/polls/:id/votes votes in the peer's poll (voted, own_votes [1])",
          () => describeResponse(voted),
        );
        const vote = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Create" && e.object instanceof Note && e.object.replyTargetId?.href === questionId.href));
        if (!c.check(vote != null, `alice's vote reaches the peer as a verified Create of a Note within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, vote, s.aliceId, "the vote");
        c.check(
          String(vote.object.name) === options[1] && vote.object.attributionId?.href === s.aliceId,
          "the vote's Note is attributed to alice and named after the option she chose",
          () => `name ${JSON.stringify(String(vote.object.name))}, attributedTo ${vote.object.attributionId?.href}`,
        );
        questions.set(uuid, make([2, 1], 3));
        const updated = await send(
          ctx,
          s.alice,
          new Update({ id: new URL(`${questionId.href}#updates/${randomUUID()}`), actor: peerUri, object: questions.get(uuid), tos: [PUBLIC_COLLECTION], ccs: [followersUri] }),
        );
        c.check(updated == null, "alice's inbox takes the peer's Update of the Question with the new totals", () => String(updated));
        const refreshed = await poll(async () => {
          last = await api("GET", `/api/v1/polls/${shown.poll.id}`);
          return last.status === 200 && last.body?.votes_count === 3 && last.body?.options?.[1]?.votes_count === 1;
        });
        c.check(
          refreshed && last.body.voted === true && JSON.stringify(last.body.own_votes) === "[1]",
          "GET /api/v1/polls/:id shows the Update's totals and still alice's vote",
          () => describeResponse(last),
        );
      },
    },
  ];

  console.log(`# Fedify peer ${PEER_ACCT} against fedblog ${FEDBLOG_BASE} as ${aliceAcct}`);
  for (const step of steps) {
    current = step.name;
    const missing = step.needs.filter((n) => s[n] == null);
    if (missing.length > 0) {
      console.log(`# skipped ${step.name}: an earlier step did not provide ${missing.join(", ")}`);
      continue;
    }
    console.log(`# ${step.name}`);
    try {
      await step.run();
    } catch (error) {
      if (!(error instanceof StepStopped)) {
        c.notOk(`${step.name} runs without an exception`, error?.stack ?? error);
      }
    }
  }
  clearTimeout(overall);

  if (refusedFetches.length > 0) {
    c.notOk("every request stayed on loopback", `refused: ${refusedFetches.join(", ")}`);
  }
  const unverified = inboxPosts.filter((p) => p.status != null && p.status >= 400);
  if (unverified.length > 0) {
    console.log(`# ${unverified.length} inbox POST(s) were refused by the peer: ${oneLine(unverified.map(describePost).join("; "))}`);
  }
  console.log(`${c.total} checks, ${c.failed} failed`);
  return c.failed === 0 ? 0 : 1;
}

// --- start ----------------------------------------------------------------------------------

await new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(PEER_PORT, "127.0.0.1", resolve);
});
console.log(`peer: Fedify peer ${PEER_ACCT} serving ${ORIGIN}/users/${PEER_ID}`);

if (FEDBLOG_BASE === "") {
  console.log("peer: no FEDBLOG_BASE; serving only (Ctrl-C stops)");
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} else {
  const code = await runScenario();
  process.exit(code);
}
