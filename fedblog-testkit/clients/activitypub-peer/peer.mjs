// An independent ActivityPub peer built with Fedify, and a scenario that checks a fedblog server
// against it over loopback.
//
//   PEER_PORT=5555 FEDBLOG_BASE=http://127.0.0.1:4321 FEDBLOG_USER=alice FEDBLOG_TOKEN=... \
//     node peer.mjs
//
// The peer serves one actor, `peer` (a Person with an RSA key made at start), at
// http://127.0.0.1:$PEER_PORT/users/peer: its inbox /users/peer/inbox, the shared inbox /inbox,
// its followers, following and outbox collections, its notes, and WebFinger for
// acct:peer@127.0.0.1:$PEER_PORT, all through Fedify. It accepts every Follow (an `Accept` signed
// and sent back to the follower's inbox) and records every activity that reaches an inbox.
// Fedify calls an inbox listener only for a request whose signature verified, so every
// activity recorded here was signed correctly by its actor; the HTTP bridge also verifies each
// inbox POST's HTTP signature on its own (Fedify's `verifyRequest`) to name the key that signed.
//
// Without FEDBLOG_BASE the peer only serves (until interrupted), to be looked at with curl.
// With it, the scenario runs against fedblog and the process exits 0 only if every check
// passed (1 on a failed check or the overall timeout of 120 s, 2 on bad settings).
//
// Every request goes to loopback: a fetch to any other host is refused (and reported). Fedify
// looks up `acct:` handles over https only, as Mastodon does; loopback has no TLS here, so
// https://127.0.0.1:... (and localhost) requests are made over http instead.
//
// PEER_LOG=debug|info|warning|error sets how much of Fedify's log reaches stderr (warning).

import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import { randomUUID } from "node:crypto";
import {
  Accept,
  Activity,
  Create,
  createExponentialBackoffPolicy,
  createFederation,
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
  Undo,
  verifyRequest,
} from "@fedify/fedify";
import { configure } from "@logtape/logtape";
import { Temporal } from "@js-temporal/polyfill";

// --- settings ------------------------------------------------------------------------------

const OVERALL_TIMEOUT_MS = 120_000;
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
const likes = new Map(); // uuid -> Like
const received = []; // verified activities, in order of arrival
const inboxPosts = []; // every POST to an inbox, as the HTTP bridge saw it
const acceptsSent = []; // { followId, to, error }
const inboxErrors = [];
const outboxErrors = [];

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

/** A call to fedblog's Mastodon client API as the local user. */
async function api(method, path, { json, query } = {}) {
  const url = new URL(FEDBLOG_BASE + path);
  for (const [name, value] of query ?? []) url.searchParams.append(name, value);
  const headers = { authorization: `Bearer ${FEDBLOG_TOKEN}`, accept: "application/json" };
  if (json !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await nativeFetch(url, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
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
        // Through Fedify's followers fan-out, which queues the delivery (Fedify 1.5 does not
        // honour `immediate` for "followers"): wait for the POST to alice's server to end.
        const outFrom = outgoing.length;
        const errorsFrom = outboxErrors.length;
        const error = await send(ctx, "followers", create, { preferSharedInbox: true });
        const delivery = await poll(() =>
          outgoing
            .slice(outFrom)
            .find((o) => o.method === "POST" && o.url.startsWith(`${FEDBLOG_BASE}/`) && (o.status != null || o.error != null)));
        const sharedInbox = s.alice.endpoints?.sharedInbox?.href ?? null;
        c.check(
          error == null && delivery != null && delivery.status >= 200 && delivery.status < 300,
          `the peer's signed Create to its followers is taken by ${delivery?.url ?? "fedblog"}` +
            (sharedInbox != null && delivery?.url === sharedInbox ? " (alice's shared inbox)" : ""),
          () =>
            `${error ?? (delivery == null ? `no delivery to fedblog within ${WAIT_MS / 1000} s` : `${delivery.status ?? delivery.error}`)}; ` +
            `${lastDelivery(outFrom)}; ${outboxErrors.slice(errorsFrom).map((e) => e.error).join(" | ")}`,
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
