// An independent ActivityPub peer built with Fedify, and a scenario that checks a fedblog server
// against it over loopback.
//
//   PEER_PORT=5555 FEDBLOG_BASE=http://127.0.0.1:4321 FEDBLOG_USER=alice FEDBLOG_TOKEN=... \
//     node peer.mjs
//
// The peer serves an actor, `peer` (a Person with an RSA key made at start), at
// http://127.0.0.1:$PEER_PORT/users/peer: its inbox /users/peer/inbox, the shared inbox /inbox,
// its followers (by id; with FEP-8fcf's ?base-url= only those on that server), following,
// outbox, featured (pinned posts) and featuredTags collections, its notes, its custom emoji, and
// WebFinger for acct:peer@127.0.0.1:$PEER_PORT, all through Fedify; and, outside Fedify, the
// images its notes and emoji use at /media/{name}.png. Two more actors, served the same
// way, are there for moves: `peer2` (where `peer` moves; `alsoKnownAs` names `peer`) and
// `alice2` (where alice moves; it names her once the scenario knows her actor). The peer
// accepts every Follow of its actors (an `Accept` signed and sent back to the follower's inbox)
// and records every activity that reaches an inbox.
// Fedify calls an inbox listener only for a request whose signature verified, so every
// activity recorded here was signed correctly by its actor; the HTTP bridge also verifies each
// inbox POST's HTTP signature on its own (Fedify's `verifyRequest`) to name the key that signed.
// Fedify 1.5 cannot read an `Add`/`Remove` of a Hashtag (a Link) as Mastodon writes one; the
// bridge takes those itself when their HTTP signature verified (see takeLinkObjectActivity).
// Fedify 1.5.9's verifyRequest leaves the query out of `(request-target)`: the signature of a
// GET of a followers collection (`?base-url=…`) is checked by the draft here (verifyCavage).
//
// Without FEDBLOG_BASE the peer only serves (until interrupted), to be looked at with curl.
// With it, the scenario runs against fedblog and the process exits 0 only if every check
// passed (1 on a failed check or the overall timeout of 300 s, 2 on bad settings). With
// FEDBLOG_CLI (the fedblog-server binary, its settings in the FEDBLOG_* environment) it also
// runs the CLI mid-way: `accounts create` and `tokens create` for a second account, bea (for
// followers synchronisation), `accounts aliases` and `accounts move` for alice, and for a third
// account, cleo, and an administrator, warden (moderation: suspensions and reports across
// servers); without it steps 18, 22 and 23 (and 24 and 25, which need 23) are skipped.
// Steps 20a-20g federate quote posts (FEP-044f, as Mastodon 4.5 does) both ways: Fedify 1.5
// has no QuoteRequest or QuoteAuthorization, so the peer writes those (and its quoting Notes)
// as JSON, signs them with Fedify's signRequest and serves its own outside Fedify; the bridge
// takes the QuoteRequests, and the Accepts and Rejects of the peer's, itself (takeQuoteActivity).
//
// Every request goes to loopback: a fetch to any other host is refused (and reported). Fedify
// looks up `acct:` handles over https only, as Mastodon does; loopback has no TLS here, so
// https://127.0.0.1:... (and localhost) requests are made over http instead.
//
// PEER_LOG=debug|info|warning|error sets how much of Fedify's log reaches stderr (warning).

import { AsyncLocalStorage } from "node:async_hooks";
import { execFile } from "node:child_process";
import http from "node:http";
import { createHash, randomUUID } from "node:crypto";
import { deflateSync } from "node:zlib";
import {
  Accept,
  Activity,
  Add,
  Create,
  createExponentialBackoffPolicy,
  Delete,
  createFederation,
  Document,
  Emoji,
  Endpoints,
  Flag,
  Follow,
  generateCryptoKeyPair,
  Hashtag,
  Image,
  InProcessMessageQueue,
  isActor,
  Like,
  Link,
  MemoryKvStore,
  Mention,
  Move,
  Note,
  OrderedCollection,
  Person,
  PUBLIC_COLLECTION,
  Question,
  signRequest,
  Collection,
  CryptographicKey,
  fetchKey,
  Remove,
  Undo,
  Update,
  verifyRequest,
} from "@fedify/fedify";
import { configure } from "@logtape/logtape";
import { Temporal } from "@js-temporal/polyfill";

// --- settings ------------------------------------------------------------------------------

const OVERALL_TIMEOUT_MS = 300_000;
const WAIT_MS = 20_000;
const POLL_INTERVAL_MS = 250;
// How long the scenario waits to see that something does NOT happen (a job fedblog would run
// at once, such as a followers synchronisation it should not start).
const SETTLE_MS = 3_000;

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
// Two more actors on the peer, for moves: `peer2`, where `peer` moves (it names `peer` in
// `alsoKnownAs`), and `alice2`, where alice moves (it names alice once her actor is known).
const PEER2_ID = "peer2";
const PEER2_ACCT = `${PEER2_ID}@${PEER_HOST}`;
const HEIR_ID = "alice2";
const HEIR_ACCT = `${HEIR_ID}@${PEER_HOST}`;
// A second local account on fedblog, made with the CLI, for followers synchronisation.
const SECOND_USER = "bea";
// A third, followed by the peer, which a fedblog administrator (ADMIN_USER, also made with the
// CLI) suspends and unsuspends; she then reports the peer.
const THIRD_USER = "cleo";
const ADMIN_USER = "warden";
// The peer's custom emoji (its image a PNG served under /media/).
const EMOJI_NAME = "peer_wave";
// Quote posts (FEP-044f, as Mastodon 4.5 has them). Fedify 1.5 has no vocabulary for them, so
// the peer writes its quoting Notes, QuoteRequests and QuoteAuthorizations as JSON with these
// terms (the namespaces Mastodon 4.5 uses), signs them with Fedify's signRequest and serves
// its own at the QUOTE_PATHS below, outside Fedify.
const AS_PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const QUOTE_TERMS = {
  QuoteRequest: "https://w3id.org/fep/044f#QuoteRequest",
  QuoteAuthorization: "https://w3id.org/fep/044f#QuoteAuthorization",
  quote: { "@id": "https://w3id.org/fep/044f#quote", "@type": "@id" },
  quoteUri: "http://fedibird.com/ns#quoteUri",
  _misskey_quote: "https://misskey-hub.net/ns#_misskey_quote",
  quoteAuthorization: { "@id": "https://w3id.org/fep/044f#quoteAuthorization", "@type": "@id" },
  gts: "https://gotosocial.org/ns#",
  interactionPolicy: { "@id": "gts:interactionPolicy", "@type": "@id" },
  canQuote: { "@id": "gts:canQuote", "@type": "@id" },
  automaticApproval: { "@id": "gts:automaticApproval", "@type": "@id" },
  manualApproval: { "@id": "gts:manualApproval", "@type": "@id" },
  interactingObject: { "@id": "gts:interactingObject", "@type": "@id" },
  interactionTarget: { "@id": "gts:interactionTarget", "@type": "@id" },
};
const QUOTE_CONTEXT = ["https://www.w3.org/ns/activitystreams", QUOTE_TERMS];
// The terms a fedblog Note's @context must define for its quote properties to mean anything.
const QUOTE_NOTE_TERMS = [
  "quote", "quoteUri", "_misskey_quote", "quoteAuthorization",
  "interactionPolicy", "canQuote", "automaticApproval", "manualApproval",
];

const FEDBLOG_BASE = (process.env.FEDBLOG_BASE ?? "").replace(/\/+$/, "");
const FEDBLOG_USER = process.env.FEDBLOG_USER ?? "alice";
const FEDBLOG_TOKEN = process.env.FEDBLOG_TOKEN ?? "";
// The fedblog-server binary, for the CLI steps (bea's account; alice's aliases and move); its
// settings come from the FEDBLOG_* environment run.sh exports. Without it those steps are skipped.
const FEDBLOG_CLI = process.env.FEDBLOG_CLI ?? "";
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
const outgoing = []; // { method, url, status, error, sync (its Collection-Synchronization header) }
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
  const entry = {
    method: request.method,
    url: url.href,
    status: null,
    error: null,
    sync: request.headers.get("collection-synchronization"),
  };
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

/**
 * The peer's actors, by identifier: each with an RSA key made at start, its followers (actor
 * id -> the follower actor, a Recipient), what its `featured` collection lists (Notes, inlined
 * as Mastodon does) and its `featuredTags` collection (hashtag names), its aliases
 * (`alsoKnownAs`) and the actor it moved to (`movedTo`).
 */
const actors = new Map();
for (const [identifier, name] of [
  [PEER_ID, "Fedify peer"],
  [PEER2_ID, "Fedify peer, moved"],
  [HEIR_ID, "alice, moved to the Fedify peer"],
]) {
  actors.set(identifier, {
    name,
    keyPair: await generateCryptoKeyPair("RSASSA-PKCS1-v1_5"),
    followers: new Map(),
    featured: [],
    featuredTags: [],
    aliases: [],
    successor: null,
  });
}
const followers = actors.get(PEER_ID).followers; // the peer's followers
const notes = new Map(); // local note id (uuid) -> Note (of any of the peer's actors)
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
const collectionGets = []; // GETs of the actors' followers collections, as the HTTP bridge saw them
const followersFiltered = []; // { at, identifier, filter, items }: the followers dispatcher's calls with a filter
// Quote posts, outside Fedify: the JSON documents the peer serves (path -> JSON: its quoting
// Notes, QuoteRequests and QuoteAuthorizations; a path under QUOTE_PATHS not here answers 404),
// the GETs of them (with their HTTP signatures), and the ids of the QuoteRequests it sent
// (an Accept or Reject naming one is taken by the HTTP bridge, see takeQuoteActivity).
const QUOTE_PATHS = [`/users/${PEER_ID}/statuses/`, `/users/${PEER_ID}/quote_requests/`, `/users/${PEER_ID}/quote_authorizations/`];
const quoteDocs = new Map();
const quoteDocGets = []; // { at, path, status, httpSigKeyId, httpSigOwner, httpSigError }
const quoteRequestsSent = new Set();

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
    const a = actors.get(identifier);
    if (a == null) return null;
    const keys = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: a.name,
      summary: "<p>An ActivityPub peer (Fedify) that checks fedblog over loopback.</p>",
      url: ctx.getActorUri(identifier),
      inbox: ctx.getInboxUri(identifier),
      outbox: ctx.getOutboxUri(identifier),
      following: ctx.getFollowingUri(identifier),
      followers: ctx.getFollowersUri(identifier),
      featured: ctx.getFeaturedUri(identifier),
      featuredTags: ctx.getFeaturedTagsUri(identifier),
      aliases: a.aliases,
      successor: a.successor,
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: keys[0].cryptographicKey,
      assertionMethods: keys.map((k) => k.multikey),
      manuallyApprovesFollowers: false,
      discoverable: true,
      published: Temporal.Instant.from("2024-01-01T00:00:00Z"),
    });
  })
  .setKeyPairsDispatcher(async (_ctx, identifier) => {
    const a = actors.get(identifier);
    return a == null ? [] : [a.keyPair];
  })
  .mapHandle((_ctx, username) => (actors.has(username) ? username : null));

// The followers are listed by id, as Mastodon lists them (the dispatcher answers Recipients:
// Fedify serves their ids, and sends to their inboxes). A request for the partial collection of
// one server (FEP-8fcf: `?base-url=https://server/`, which Fedify passes on as `filter`) gets
// only the followers whose ids start with that base URI; those calls are recorded.
federation
  .setFollowersDispatcher("/users/{identifier}/followers", async (_ctx, identifier, _cursor, filter) => {
    const a = actors.get(identifier);
    if (a == null) return null;
    const all = [...a.followers.values()];
    const listed = filter == null ? all : all.filter((f) => f.id?.href.startsWith(filter.href));
    if (filter != null) {
      followersFiltered.push({ at: Date.now(), identifier, filter: filter.href, items: listed.map((f) => f.id?.href) });
    }
    return {
      items: listed.map((f) => ({ id: f.id, inboxId: f.inboxId, endpoints: f.endpoints ?? null })),
    };
  })
  .setCounter((_ctx, identifier) => actors.get(identifier)?.followers.size ?? null);

federation
  .setFollowingDispatcher("/users/{identifier}/following", async (_ctx, identifier) =>
    actors.has(identifier) ? { items: [] } : null)
  .setCounter(() => 0);

federation
  .setOutboxDispatcher("/users/{identifier}/outbox", async (_ctx, identifier) =>
    actors.has(identifier) ? { items: [] } : null)
  .setCounter(() => 0);

// Pinned posts, inlined (as Mastodon serves them), and featured hashtags.
federation
  .setFeaturedDispatcher("/users/{identifier}/collections/featured", async (_ctx, identifier) => {
    const a = actors.get(identifier);
    return a == null ? null : { items: [...a.featured] };
  });
federation
  .setFeaturedTagsDispatcher("/users/{identifier}/collections/tags", async (_ctx, identifier) => {
    const a = actors.get(identifier);
    return a == null ? null : { items: a.featuredTags.map(hashtagOf) };
  });

/** The peer's custom emoji `:name:`, its image the PNG at /media/{name}.png (emojiImageUrl). */
function emojiOf(ctx, name) {
  return new Emoji({
    id: ctx.getObjectUri(Emoji, { name }),
    name: `:${name}:`,
    icon: new Image({ mediaType: "image/png", url: emojiImageUrl(name) }),
  });
}

function emojiImageUrl(name) {
  return new URL(`/media/${encodeURIComponent(name)}.png`, ORIGIN);
}
federation.setObjectDispatcher(Emoji, "/emojis/{name}", (ctx, v) =>
  media.has(`/media/${v.name}.png`) ? emojiOf(ctx, v.name) : null);

/** A Hashtag of the peer's (its `href` a tag page the peer does not serve, as in Mastodon). */
function hashtagOf(name) {
  return new Hashtag({ href: new URL(`${ORIGIN}/tags/${encodeURIComponent(name)}`), name: `#${name}` });
}

federation.setObjectDispatcher(Note, "/users/{identifier}/notes/{id}", (ctx, v) => {
  const note = actors.has(v.identifier) ? notes.get(v.id) : null;
  return note != null && note.attributionId?.href === ctx.getActorUri(v.identifier).href ? note : null;
});
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
      target: activity.targetId?.href ?? null,
      inbox: ctx.recipient == null ? "shared inbox /inbox" : `inbox of ${ctx.recipient}`,
      object: null,
      objectError: null,
    };
    if (activity instanceof Delete) {
      // What a Delete names is gone (for a QuoteAuthorization, its URI answers 404): not fetched.
      entry.objectError = "not dereferenced (the object of a Delete)";
    } else {
      try {
        entry.object = await activity.getObject(ctx);
      } catch (error) {
        entry.objectError = String(error);
      }
    }
    received.push(entry);
    if (FEDBLOG_BASE === "") {
      console.log(`peer: verified ${entry.type} ${entry.id} from ${entry.actorId} at the ${entry.inbox}`);
    }
    if (activity instanceof Follow) await acceptFollow(ctx, activity, entry);
    if (activity instanceof Undo && entry.object instanceof Follow && entry.actorId != null) {
      const undone = entry.object.objectId == null ? null : ctx.parseUri(entry.object.objectId);
      if (undone?.type === "actor") actors.get(undone.identifier)?.followers.delete(entry.actorId);
    }
  })
  .onError((_ctx, error) => {
    inboxErrors.push(String(error?.stack ?? error));
  });

/**
 * Accepts a Follow of one of the peer's actors: the follower is added and an `Accept` from the
 * actor followed goes to the follower's inbox.
 */
async function acceptFollow(ctx, follow, entry) {
  const record = { followId: entry.id, of: null, to: null, error: null, at: Date.now() };
  acceptsSent.push(record);
  try {
    const target = follow.objectId == null ? null : ctx.parseUri(follow.objectId);
    if (target?.type !== "actor" || !actors.has(target.identifier)) {
      throw new Error(`the Follow's object is ${follow.objectId?.href}, not one of the peer's actors`);
    }
    record.of = target.identifier;
    const follower = await follow.getActor(ctx);
    if (!isActor(follower) || follower.id == null || follower.inboxId == null) {
      throw new Error(`the Follow's actor ${follow.actorId?.href} is not an actor with an inbox`);
    }
    record.to = follower.inboxId.href;
    actors.get(target.identifier).followers.set(follower.id.href, follower);
    await ctx.sendActivity(
      { identifier: target.identifier },
      follower,
      new Accept({
        id: new URL(`${ctx.getActorUri(target.identifier).href}#accepts/${randomUUID()}`),
        actor: ctx.getActorUri(target.identifier),
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

const INBOX_PATHS = new Set(["/inbox", ...[...actors.keys()].map((id) => `/users/${id}/inbox`)]);
const FOLLOWERS_PATHS = new Set([...actors.keys()].map((id) => `/users/${id}/followers`));

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
  await checkHttpSignature(request, post);
  inboxPosts.push(post);
  return post;
}

/**
 * Checks a request's HTTP signature with Fedify's `verifyRequest`, setting `record`'s
 * `httpSigKeyId` and `httpSigOwner` (the key and its owner) or `httpSigError`.
 */
async function checkHttpSignature(request, record) {
  try {
    const ctx = federation.createContext(new URL(ORIGIN), undefined);
    const key = await verifyRequest(request, {
      documentLoader: ctx.documentLoader,
      contextLoader: ctx.contextLoader,
    });
    if (key == null) record.httpSigError = "Fedify's verifyRequest refused the HTTP signature";
    else {
      record.httpSigKeyId = key.id?.href ?? null;
      record.httpSigOwner = key.ownerId?.href ?? null;
    }
  } catch (error) {
    record.httpSigError = String(error);
  }
}

/**
 * Notes a GET of a followers collection before Fedify answers it: its `base-url` (FEP-8fcf's
 * partial collection for one server) and its HTTP signature. Fedify 1.5.9's `verifyRequest`
 * leaves the query out of `(request-target)` (draft-cavage, and Mastodon, sign the path with
 * its query), so it refuses a correctly signed GET of `…/followers?base-url=…`: the signature
 * is checked here by the draft (verifyCavage), and Fedify's verdict is kept beside it.
 */
async function noteCollectionGet(request, url) {
  const get = {
    at: Date.now(),
    path: url.pathname,
    url: url.href,
    baseUrl: url.searchParams.get("base-url"),
    signature: parseSignatureHeader(request.headers.get("signature")),
    signatureInput: request.headers.get("signature-input"),
    httpSigKeyId: null,
    httpSigOwner: null,
    httpSigError: null,
    fedify: null, // Fedify's verifyRequest: the key's owner, or why it refused
    status: null,
    responseText: null,
  };
  if (get.signature == null) {
    get.httpSigError = get.signatureInput == null ? "no Signature header" : "an RFC 9421 signature (not checked here)";
  } else {
    Object.assign(get, await verifyCavage(request, get.signature));
    const logStart = fedifyLog.length;
    const fedify = {};
    await checkHttpSignature(request, fedify);
    const why = fedifyLog
      .slice(logStart)
      .filter((l) => l.category.startsWith("fedify.sig") && /fail|not match|invalid|error|expired/i.test(l.text))
      .map((l) => l.text.replace(/ signature \S+ is invalid/, " signature is invalid"));
    get.fedify = fedify.httpSigOwner ?? `${fedify.httpSigError}: ${why.join(" | ").slice(0, 400)}`;
  }
  collectionGets.push(get);
  return get;
}

/**
 * Checks a draft-cavage HTTP signature (its `Signature` header's fields) as the draft has it:
 * `(request-target)` is the method and the path with its query. It must cover
 * `(request-target)`, `host` and `date`; the key is fetched with Fedify's `fetchKey`. Answers
 * `{ httpSigKeyId, httpSigOwner }`, or `{ httpSigError }`.
 */
async function verifyCavage(request, fields) {
  const names = String(fields.headers ?? "date").toLowerCase().split(/\s+/);
  const missing = ["(request-target)", "host", "date"].filter((n) => !names.includes(n));
  if (missing.length > 0) return { httpSigError: `the signature does not cover ${missing.join(", ")}` };
  if (fields.algorithm != null && !["rsa-sha256", "hs2019"].includes(fields.algorithm)) {
    return { httpSigError: `algorithm ${fields.algorithm}` };
  }
  try {
    const ctx = federation.createContext(new URL(ORIGIN), undefined);
    const { key } = await fetchKey(new URL(fields.keyId), CryptographicKey, {
      documentLoader: ctx.documentLoader,
      contextLoader: ctx.contextLoader,
    });
    if (key == null) return { httpSigError: `no key found at ${fields.keyId}` };
    const url = new URL(request.url);
    const message = names
      .map((n) => {
        if (n === "(request-target)") return `${n}: ${request.method.toLowerCase()} ${url.pathname}${url.search}`;
        if (n === "host") return `${n}: ${request.headers.get("host") ?? url.host}`;
        return `${n}: ${(request.headers.get(n) ?? "").trim()}`;
      })
      .join("\n");
    const verified = await globalThis.crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      key.publicKey,
      Buffer.from(String(fields.signature), "base64"),
      new TextEncoder().encode(message),
    );
    return verified
      ? { httpSigKeyId: key.id?.href ?? null, httpSigOwner: key.ownerId?.href ?? null }
      : { httpSigError: `the signature does not verify with ${fields.keyId} over ${JSON.stringify(message)}` };
  } catch (error) {
    return { httpSigError: String(error) };
  }
}

/**
 * An `Add` or `Remove` whose object is a `Hashtag`, as Mastodon sends one for a featured tag:
 * Fedify 1.5 cannot read it (its `Activity.object` is an Object, and a Hashtag is a Link; its
 * inbox would answer 400). The bridge takes such an activity itself, before Fedify, when its
 * HTTP signature verified (Fedify's `verifyRequest`, in noteInboxPost) with a key of its actor
 * and Fedify's `Link.fromJsonLd` reads its object as a Hashtag, and records it as the inbox
 * listener would. True if taken.
 */
async function takeLinkObjectActivity(post, url) {
  const json = post.json;
  if (
    (post.activityType !== "Add" && post.activityType !== "Remove") ||
    post.actorId == null ||
    post.httpSigOwner !== post.actorId ||
    json?.object == null ||
    typeof json.object !== "object"
  ) {
    return false;
  }
  const tag = await hashtagIn(json);
  if (tag.hashtag == null) return false;
  const recipient = url.pathname === "/inbox" ? null : url.pathname.split("/")[2];
  received.push({
    at: Date.now(),
    type: post.activityType,
    activity: null,
    id: post.activityId,
    actorId: post.actorId,
    objectId: null,
    target: typeof json.target === "string" ? json.target : (json.target?.id ?? null),
    inbox: recipient == null ? "shared inbox /inbox" : `inbox of ${recipient}`,
    object: tag.hashtag,
    objectError: null,
    viaBridge: true,
  });
  return true;
}

/**
 * The `object` of an activity's JSON, read with the activity's @context by Fedify's
 * `Link.fromJsonLd` (which picks the subclass its JSON-LD type names): `{ hashtag }` when that
 * is a Hashtag, else `{ error }` saying what it is.
 */
async function hashtagIn(json) {
  if (json == null || typeof json.object !== "object" || json.object == null) {
    return { hashtag: null, error: `the object is ${JSON.stringify(json?.object)}, not embedded` };
  }
  const ctx = federation.createContext(new URL(ORIGIN), undefined);
  const read = JSON.stringify({ "@context": json["@context"], object: json.object });
  try {
    const link = await Link.fromJsonLd(
      { "@context": json["@context"], ...json.object },
      { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader },
    );
    if (link instanceof Hashtag) return { hashtag: link, error: null };
    return {
      hashtag: null,
      error: `Fedify reads a ${link?.constructor?.name} named ${JSON.stringify(String(link?.name))}, not a Hashtag ` +
        `(its type does not expand to as:Hashtag under that @context), from ${read}`,
    };
  } catch (error) {
    return { hashtag: null, error: `${error?.message ?? error}, reading ${read}` };
  }
}

/**
 * The quote activities Fedify 1.5 cannot read or would misread: a `QuoteRequest` (a type it
 * does not know; its inbox would answer 400), and an `Accept` or `Reject` of one of the peer's
 * QuoteRequests (their `object` may embed the QuoteRequest, which Fedify refuses, and a
 * listener would try to dereference it). The bridge takes such an activity itself, before
 * Fedify, when its HTTP signature verified (Fedify's `verifyRequest`, in noteInboxPost) with a
 * key of its actor, and records it as the inbox listener would, its JSON in `json`. True if taken.
 */
function takeQuoteActivity(post, url) {
  const json = post.json;
  if (json == null || typeof json !== "object" || post.actorId == null || post.httpSigOwner !== post.actorId) return false;
  const objectId = idOf(json.object);
  const quoteAnswer = (post.activityType === "Accept" || post.activityType === "Reject") && quoteRequestsSent.has(objectId);
  if (post.activityType !== "QuoteRequest" && !quoteAnswer) return false;
  const recipient = url.pathname === "/inbox" ? null : url.pathname.split("/")[2];
  received.push({
    at: Date.now(),
    type: post.activityType,
    activity: null,
    id: post.activityId,
    actorId: post.actorId,
    objectId,
    target: null,
    inbox: recipient == null ? "shared inbox /inbox" : `inbox of ${recipient}`,
    object: null,
    objectError: null,
    json,
    viaBridge: true,
  });
  return true;
}

/** The id a JSON-LD value names: the string itself, or an embedded object's `id`; else null. */
function idOf(value) {
  if (Array.isArray(value)) return value.length === 1 ? idOf(value[0]) : null;
  if (typeof value === "string") return value;
  if (value != null && typeof value === "object" && typeof value.id === "string") return value.id;
  return null;
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
    const collectionGet =
      req.method === "GET" && FOLLOWERS_PATHS.has(url.pathname) ? await noteCollectionGet(request.clone(), url) : null;
    if (post != null && ((await takeLinkObjectActivity(post, url)) || takeQuoteActivity(post, url))) {
      post.status = 202;
      post.responseText = "";
      res.writeHead(202);
      res.end();
      return;
    }
    // The peer's quote documents (quoting Notes, QuoteRequests, QuoteAuthorizations), outside
    // Fedify; each GET is noted with its HTTP signature (Fedify's verifyRequest).
    if ((req.method === "GET" || req.method === "HEAD") && QUOTE_PATHS.some((prefix) => url.pathname.startsWith(prefix))) {
      const get = { at: Date.now(), path: url.pathname, status: null, httpSigKeyId: null, httpSigOwner: null, httpSigError: null };
      if (request.headers.get("signature") == null) get.httpSigError = "no Signature header";
      else await checkHttpSignature(request.clone(), get);
      const doc = quoteDocs.get(url.pathname);
      get.status = doc == null ? 404 : 200;
      quoteDocGets.push(get);
      if (doc == null) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end(req.method === "HEAD" ? undefined : "Not found\n");
      } else {
        const bytes = Buffer.from(JSON.stringify(doc));
        res.writeHead(200, { "content-type": "application/activity+json", "content-length": String(bytes.length), vary: "Accept" });
        res.end(req.method === "HEAD" ? undefined : bytes);
      }
      return;
    }
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
    if (collectionGet != null) {
      collectionGet.status = response.status;
      collectionGet.responseText = responseBody.toString("utf8").slice(0, 1500);
    }
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
 * A call to fedblog's Mastodon client API as the local user (or as whoever `token` is for): a
 * JSON body (`json`) or a multipart one (`form`, a FormData).
 */
async function api(method, path, { json, query, form, token } = {}) {
  const url = new URL(FEDBLOG_BASE + path);
  for (const [name, value] of query ?? []) url.searchParams.append(name, value);
  const headers = { authorization: `Bearer ${token ?? FEDBLOG_TOKEN}`, accept: "application/json" };
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

/**
 * The digest of a partial followers collection (FEP-8fcf), worked out here on its own: the
 * SHA-256 digests of the distinct actor ids XORed together, in lower-case hex.
 */
function followersDigest(ids) {
  const sum = Buffer.alloc(32);
  for (const id of new Set(ids)) {
    const d = createHash("sha256").update(id).digest();
    for (let i = 0; i < 32; i++) sum[i] ^= d[i];
  }
  return sum.toString("hex");
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
 * for the POST to fedblog to end. `options` are more of Fedify's (`syncCollection`). Answers
 * `{ ok, delivery, details }`: `delivery` the POST (see `outgoing`), `details` what went wrong.
 */
async function sendToFollowers(ctx, activity, options = {}) {
  const outFrom = outgoing.length;
  const errorsFrom = outboxErrors.length;
  const error = await send(ctx, "followers", activity, { preferSharedInbox: true, ...options });
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

/** An object looked up afresh through Fedify (not from its cache), with requests signed by the peer. */
async function lookupFresh(ctx, url) {
  try {
    const documentLoader = await ctx.getDocumentLoader({ identifier: PEER_ID });
    const object = await ctx.lookupObject(String(url), { documentLoader });
    return { object, error: object == null ? `Fedify found nothing at ${url}` : null };
  } catch (error) {
    return { object: null, error: String(error) };
  }
}

/** A (small, unpaged) collection looked up afresh through Fedify, and its items as Fedify reads them. */
async function collectionItems(ctx, url) {
  const found = await lookupFresh(ctx, url);
  if (found.error != null) return { collection: null, items: null, error: found.error };
  if (!(found.object instanceof Collection)) {
    return { collection: null, items: null, error: `${url} is a ${found.object?.constructor?.name}, not a collection` };
  }
  const items = [];
  const raw = JSON.stringify(await getActivityJson(String(url)).then((r) => r.json ?? r.text)).slice(0, 600);
  try {
    for await (const item of found.object.getItems(ctx)) items.push(item);
  } catch (error) {
    return { collection: found.object, items: null, raw, error: `reading its items: ${error}` };
  }
  return { collection: found.object, items, raw, error: null };
}

function describeItems(items) {
  return JSON.stringify((items ?? []).map((i) => `${i?.constructor?.name} ${i?.id?.href ?? String(i?.name ?? "")}`));
}

/**
 * Sends the peer's `Add` or `Remove` (`type`) of a Hashtag to its `target` collection to the
 * inbox of `recipient`, signed with Fedify's `signRequest` by the peer's key. Fedify's `Add`
 * cannot carry a Hashtag (a Link; its object is an Object), so the activity is written as
 * Mastodon writes it, the Hashtag from Fedify's `toJsonLd`. Answers the error's text if it failed.
 */
async function sendHashtagChange(ctx, recipient, type, hashtag, target) {
  const actor = ctx.getActorUri(PEER_ID);
  const tag = await hashtag.toJsonLd({ contextLoader: ctx.contextLoader });
  delete tag["@context"];
  const json = {
    "@context": ["https://www.w3.org/ns/activitystreams", { Hashtag: "as:Hashtag" }],
    id: `${actor.href}#featured/${randomUUID()}`,
    type,
    actor: actor.href,
    object: tag,
    target: target.href,
  };
  return await sendSigned(ctx, recipient.inboxId, json);
}

/**
 * POSTs an activity the peer wrote as JSON (`json`) to `inbox`, signed with Fedify's
 * `signRequest` by the peer's key. Answers the error's text if it failed.
 */
async function sendSigned(ctx, inbox, json) {
  const actor = ctx.getActorUri(PEER_ID);
  try {
    const request = new Request(inbox, {
      method: "POST",
      headers: { "content-type": "application/activity+json", accept: "application/activity+json" },
      body: JSON.stringify(json),
    });
    const keyPair = actors.get(PEER_ID).keyPair;
    const signed = await signRequest(request, keyPair.privateKey, new URL(`${actor.href}#main-key`));
    const response = await globalThis.fetch(signed);
    const text = await response.text();
    return response.ok ? null : `${inbox.href ?? inbox} answered ${response.status}: ${text.slice(0, 300)}`;
  } catch (error) {
    return String(error?.message ?? error);
  }
}

/**
 * A GET of an ActivityPub document signed by the peer's key (Fedify's `signRequest`), not
 * cached: `{ status, contentType, json, text, url }`.
 */
async function signedGet(ctx, url) {
  const actor = ctx.getActorUri(PEER_ID);
  try {
    const request = new Request(url, { headers: { accept: "application/activity+json" } });
    const keyPair = actors.get(PEER_ID).keyPair;
    const signed = await signRequest(request, keyPair.privateKey, new URL(`${actor.href}#main-key`));
    const response = await globalThis.fetch(signed);
    const text = await response.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // reported through `text`
    }
    return { status: response.status, contentType: response.headers.get("content-type") ?? "", json, text, url };
  } catch (error) {
    return { status: 0, contentType: "", json: null, text: `request failed: ${error?.cause ?? error}`, url };
  }
}

/** The JSON of a verified activity as it reached the peer (taken by the bridge, or the POST Fedify verified). */
function jsonOf(entry) {
  if (entry?.json != null) return entry.json;
  return signatureOf(entry)?.json ?? null;
}

/** A Note's JSON `interactionPolicy.canQuote`, as `{ automatic, manual }` id arrays (null when absent). */
function canQuoteOf(note) {
  const canQuote = note?.interactionPolicy?.canQuote;
  if (canQuote == null || typeof canQuote !== "object") return null;
  const ids = (v) => (v == null ? [] : (Array.isArray(v) ? v : [v]).map((x) => idOf(x) ?? JSON.stringify(x)));
  return { automatic: ids(canQuote.automaticApproval), manual: ids(canQuote.manualApproval), raw: canQuote };
}

/** The terms among `names` that a JSON-LD document's own @context does not define. */
function undefinedTerms(doc, names) {
  const contexts = Array.isArray(doc?.["@context"]) ? doc["@context"] : [doc?.["@context"]];
  const defined = new Set(contexts.filter((x) => x != null && typeof x === "object").flatMap((x) => Object.keys(x)));
  return names.filter((n) => !defined.has(n));
}

/** Whether two id lists are the same, in order. */
function sameList(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A JSON value for a failure's details, cut short. */
function short(value, n = 600) {
  return (JSON.stringify(value) ?? String(value)).slice(0, n);
}

/**
 * Runs the fedblog-server CLI (FEDBLOG_CLI) with the server's FEDBLOG_* settings this process
 * has from run.sh (not the scenario's own FEDBLOG_BASE, _USER, _TOKEN and _CLI).
 */
function runCli(args) {
  const env = { ...process.env };
  for (const name of ["FEDBLOG_BASE", "FEDBLOG_USER", "FEDBLOG_TOKEN", "FEDBLOG_CLI"]) delete env[name];
  return new Promise((resolve) => {
    execFile(FEDBLOG_CLI, args, { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error == null ? 0 : (error.code ?? String(error)), stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

async function runScenario() {
  const c = scenarioCheck();
  const ctx = federation.createContext(new URL(ORIGIN), undefined);
  const peerUri = ctx.getActorUri(PEER_ID);
  /**
   * A new Note by the peer saying `text` (more of its properties in `extra`), kept to be
   * served, and its Create, both addressed `tos`/`ccs` (by default public, cc its followers).
   */
  const newPeerNote = (text, { tos, ccs, ...extra } = {}) => {
    const uuid = randomUUID();
    const noteId = ctx.getObjectUri(Note, { identifier: PEER_ID, id: uuid });
    const followersUri = ctx.getFollowersUri(PEER_ID);
    tos ??= [PUBLIC_COLLECTION];
    ccs ??= [followersUri];
    const published = Temporal.Now.instant();
    const note = new Note({ id: noteId, attribution: peerUri, content: `<p>${text}</p>`, tos, ccs, published, url: noteId, ...extra });
    notes.set(uuid, note);
    const create = new Create({ id: new URL(`${noteId.href}/activity`), actor: peerUri, object: note, tos, ccs, published });
    return { uuid, noteId, note, create, followersUri };
  };
  /**
   * A new Note by the peer saying `text`, written as JSON (Fedify's Note has no quote
   * properties) and served at /users/peer/statuses/{uuid}: public, cc its followers, anyone
   * may quote it (interactionPolicy), and when `quote` is given it quotes that post (`quote`,
   * with `quoteUri` and `_misskey_quote`, as Mastodon 4.5 writes them). Answers it with its Create.
   */
  const newQuoteNote = (text, { quote } = {}) => {
    const path = `/users/${PEER_ID}/statuses/${randomUUID()}`;
    const noteId = `${ORIGIN}${path}`;
    const published = new Date().toISOString();
    const note = {
      id: noteId,
      type: "Note",
      attributedTo: peerUri.href,
      content: `<p>${text}</p>`,
      to: [AS_PUBLIC],
      cc: [ctx.getFollowersUri(PEER_ID).href],
      published,
      url: noteId,
      interactionPolicy: { canQuote: { automaticApproval: [AS_PUBLIC], manualApproval: [] } },
      ...(quote == null ? {} : { quote, quoteUri: quote, _misskey_quote: quote }),
    };
    quoteDocs.set(path, { "@context": QUOTE_CONTEXT, ...note });
    const create = { "@context": QUOTE_CONTEXT, id: `${noteId}/activity`, type: "Create", actor: peerUri.href, published, to: note.to, cc: note.cc, object: note };
    return { noteId, note, create };
  };
  /** The peer's QuoteRequest for the post `quoted`, its instrument the quoting Note `note` (embedded), served at its id. */
  const newQuoteRequest = (quoted, note) => {
    const path = `/users/${PEER_ID}/quote_requests/${randomUUID()}`;
    const id = `${ORIGIN}${path}`;
    const json = { "@context": QUOTE_CONTEXT, id, type: "QuoteRequest", actor: peerUri.href, object: quoted, instrument: note };
    quoteDocs.set(path, json);
    quoteRequestsSent.add(id);
    return { id, json };
  };
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
        const { uuid, noteId, note, create } = newPeerNote(text);
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
        const { uuid, noteId, note, create } = newPeerNote(text, {
          attachments: [new Document({ url: mediaUrl, mediaType: "image/png", name, width: 4, height: 4 })],
        });
        const sent = await sendToFollowers(ctx, create);
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
    {
      name: "step 15: alice pins her status, then unpins it",
      needs: ["peerFollowsAlice", "status"],
      async run() {
        const featuredId = s.alice.featuredId?.href ?? null;
        if (!c.check(featuredId != null, "alice's actor names a featured collection", () => "no featured in her actor")) {
          throw new StepStopped();
        }
        const uri = s.status.uri;
        let receivedFrom = received.length;
        let postsFrom = inboxPosts.length;
        const pinned = await api("POST", `/api/v1/statuses/${s.status.id}/pin`);
        if (!c.check(pinned.status === 200 && pinned.body?.pinned === true, "POST /api/v1/statuses/:id/pin pins alice's status", () => describeResponse(pinned))) {
          throw new StepStopped();
        }
        const add = await poll(() => received.slice(receivedFrom).find((e) => e.activity instanceof Add && e.objectId === uri));
        if (!c.check(add != null, `a verified Add of alice's Note arrives within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, add, s.aliceId, "the Add");
        c.check(
          add.actorId === s.aliceId && add.activity.targetId?.href === featuredId,
          "the Add's actor is alice and its target her featured collection",
          () => `actor ${add.actorId}, target ${add.activity.targetId?.href}, featured ${featuredId}`,
        );
        c.check(
          add.object instanceof Note && add.object.attributionId?.href === s.aliceId,
          "the Add's object dereferences (through Fedify) to alice's Note",
          () => add.objectError ?? `object ${add.object?.constructor?.name} ${add.object?.id?.href}`,
        );
        const listed = await collectionItems(ctx, featuredId);
        const inlined = listed.items?.find((i) => i instanceof Note && i.id?.href === uri);
        c.check(
          inlined != null,
          "Fedify's signed lookup of alice's featured collection lists the Note",
          () => listed.error ?? `items ${describeItems(listed.items)}`,
        );
        if (inlined != null) {
          const tags = [];
          for await (const tag of inlined.getTags(ctx)) tags.push(tag);
          c.check(
            tags.some((t) => t instanceof Hashtag && String(t.name).toLowerCase() === "#fedify"),
            "the Note as the collection inlines it carries its Hashtag #fedify, as Fedify reads it",
            () => `tags ${describeItems(tags)}; as served: ${listed.raw}`,
          );
        }
        receivedFrom = received.length;
        postsFrom = inboxPosts.length;
        const unpinned = await api("POST", `/api/v1/statuses/${s.status.id}/unpin`);
        c.check(unpinned.status === 200 && unpinned.body?.pinned === false, "POST /api/v1/statuses/:id/unpin unpins it", () => describeResponse(unpinned));
        const remove = await poll(() => received.slice(receivedFrom).find((e) => e.activity instanceof Remove && e.objectId === uri));
        if (!c.check(remove != null, `a verified Remove of alice's Note arrives within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, remove, s.aliceId, "the Remove");
        c.check(
          remove.actorId === s.aliceId && remove.activity.targetId?.href === featuredId,
          "the Remove's actor is alice and its target her featured collection",
          () => `actor ${remove.actorId}, target ${remove.activity.targetId?.href}`,
        );
        const after = await collectionItems(ctx, featuredId);
        c.check(
          after.items != null && !after.items.some((i) => i.id?.href === uri),
          "alice's featured collection no longer lists the Note",
          () => after.error ?? `items ${describeItems(after.items)}`,
        );
      },
    },
    {
      name: "step 16: alice features a hashtag, then unfeatures it",
      needs: ["peerFollowsAlice"],
      async run() {
        const featuredTagsId = s.alice.featuredTagsId?.href ?? null;
        if (!c.check(featuredTagsId != null, "alice's actor names a featuredTags collection", () => "no featuredTags in her actor")) {
          throw new StepStopped();
        }
        const name = `peertag${randomUUID().slice(0, 6)}`;
        const isTag = (o) => o instanceof Hashtag && String(o.name).toLowerCase() === `#${name}`;
        let receivedFrom = received.length;
        let postsFrom = inboxPosts.length;
        const featured = await api("POST", "/api/v1/featured_tags", { json: { name } });
        if (!c.check(featured.status === 200 && featured.body?.id != null && String(featured.body.name).toLowerCase() === name, `POST /api/v1/featured_tags features #${name}`, () => describeResponse(featured))) {
          throw new StepStopped();
        }
        // Fedify 1.5 reads an activity's object as an Object, never a Link such as a Hashtag:
        // the object is read again from the activity as delivered, with Link.fromJsonLd.
        const checkTag = async (entry, what) => {
          const raw = signatureOf(entry)?.json ?? null;
          const tag = await hashtagIn(raw);
          c.check(
            isTag(tag.hashtag),
            `the ${what}'s object, read with its @context by Fedify's Link.fromJsonLd, is a Hashtag #${name}`,
            () => tag.error ?? `read ${tag.hashtag?.constructor?.name} ${JSON.stringify(String(tag.hashtag?.name))}`,
          );
        };
        const isChange = (e, type) => e.type === type && e.actorId === s.aliceId && e.target === featuredTagsId;
        const add = await poll(() => received.slice(receivedFrom).find((e) => isChange(e, "Add")));
        if (!c.check(add != null, `a verified Add to alice's featuredTags collection arrives within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, add, s.aliceId, "the Add");
        await checkTag(add, "Add");
        const listed = await collectionItems(ctx, featuredTagsId);
        c.check(
          listed.items?.some(isTag),
          `Fedify's signed lookup of alice's featuredTags collection lists a Hashtag #${name}`,
          () => `${listed.error ?? `items ${describeItems(listed.items)}`}; as served: ${listed.raw ?? "?"}`,
        );
        receivedFrom = received.length;
        postsFrom = inboxPosts.length;
        const deleted = await api("DELETE", `/api/v1/featured_tags/${featured.body.id}`);
        c.check(deleted.status === 200, "DELETE /api/v1/featured_tags/:id unfeatures it", () => describeResponse(deleted));
        const remove = await poll(() => received.slice(receivedFrom).find((e) => isChange(e, "Remove")));
        if (!c.check(remove != null, `a verified Remove from alice's featuredTags collection arrives within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, remove, s.aliceId, "the Remove");
        await checkTag(remove, "Remove");
      },
    },
    {
      name: "step 17: the peer pins its post and features a hashtag, then undoes both",
      needs: ["peerPost", "peerAccountId"],
      async run() {
        const me = actors.get(PEER_ID);
        const featuredUri = ctx.getFeaturedUri(PEER_ID);
        const featuredTagsUri = ctx.getFeaturedTagsUri(PEER_ID);
        const own = await lookupFresh(ctx, peerUri);
        c.check(
          own.object?.featuredId?.href === featuredUri.href && own.object?.featuredTagsId?.href === featuredTagsUri.href,
          "the peer's actor names its featured and featuredTags collections",
          () => own.error ?? `featured ${own.object?.featuredId?.href}, featuredTags ${own.object?.featuredTagsId?.href}`,
        );
        const note = notes.get(s.peerPost.uuid);
        const noteId = note.id.href;
        me.featured = [note];
        const served = await collectionItems(ctx, featuredUri.href);
        c.check(
          served.collection instanceof OrderedCollection && served.items?.some((i) => i.id?.href === noteId),
          "the peer serves its featured collection (an OrderedCollection) listing its post",
          () => served.error ?? `${served.collection?.constructor?.name}: items ${describeItems(served.items)}`,
        );
        const pinnedPath = `/api/v1/accounts/${s.peerAccountId}/statuses`;
        const pins = async () => {
          const r = await api("GET", pinnedPath, { query: [["pinned", "true"]] });
          return { r, uris: r.status === 200 && Array.isArray(r.body) ? r.body.map((st) => st.uri) : null };
        };
        let outFrom = outgoing.length;
        let error = await send(ctx, s.alice, new Add({ id: new URL(`${peerUri.href}#featured/${randomUUID()}`), actor: peerUri, object: note.id, target: featuredUri }));
        c.check(error == null, "alice's inbox takes the peer's signed Add of its post to its featured collection", () => `${error}; ${lastDelivery(outFrom)}`);
        let last = null;
        const pinned = await poll(async () => {
          last = await pins();
          return last.uris != null && last.uris.length === 1 && last.uris[0] === noteId;
        });
        c.check(
          pinned,
          "GET /api/v1/accounts/:id/statuses?pinned=true lists the peer's post",
          () => (last.uris != null ? `uris ${JSON.stringify(last.uris)}` : describeResponse(last.r)),
        );

        const name = `peerfeature${randomUUID().slice(0, 6)}`;
        me.featuredTags = [name];
        const tags = async () => {
          const r = await api("GET", `/api/v1/accounts/${s.peerAccountId}/featured_tags`);
          return { r, names: r.status === 200 && Array.isArray(r.body) ? r.body.map((t) => String(t.name).toLowerCase()) : null };
        };
        outFrom = outgoing.length;
        error = await sendHashtagChange(ctx, s.alice, "Add", hashtagOf(name), featuredTagsUri);
        c.check(error == null, `alice's inbox takes the peer's signed Add of a Hashtag #${name} to its featuredTags collection`, () => `${error}; ${lastDelivery(outFrom)}`);
        let lastTags = null;
        const tagged = await poll(async () => {
          lastTags = await tags();
          return lastTags.names?.includes(name);
        });
        c.check(
          tagged,
          `GET /api/v1/accounts/:id/featured_tags lists #${name} for the peer`,
          () => (lastTags.names != null ? `names ${JSON.stringify(lastTags.names)}` : describeResponse(lastTags.r)),
        );

        me.featured = [];
        outFrom = outgoing.length;
        error = await send(ctx, s.alice, new Remove({ id: new URL(`${peerUri.href}#featured/${randomUUID()}`), actor: peerUri, object: note.id, target: featuredUri }));
        c.check(error == null, "alice's inbox takes the peer's signed Remove of its post from its featured collection", () => `${error}; ${lastDelivery(outFrom)}`);
        const unpinned = await poll(async () => {
          last = await pins();
          return last.uris != null && last.uris.length === 0;
        });
        c.check(
          unpinned,
          "GET /api/v1/accounts/:id/statuses?pinned=true no longer lists it",
          () => (last.uris != null ? `uris ${JSON.stringify(last.uris)}` : describeResponse(last.r)),
        );
        me.featuredTags = [];
        outFrom = outgoing.length;
        error = await sendHashtagChange(ctx, s.alice, "Remove", hashtagOf(name), featuredTagsUri);
        c.check(error == null, "alice's inbox takes the peer's signed Remove of the Hashtag from its featuredTags collection", () => `${error}; ${lastDelivery(outFrom)}`);
        const untagged = await poll(async () => {
          lastTags = await tags();
          return lastTags.names != null && !lastTags.names.includes(name);
        });
        c.check(
          untagged,
          `GET /api/v1/accounts/:id/featured_tags no longer lists #${name}`,
          () => (lastTags.names != null ? `names ${JSON.stringify(lastTags.names)}` : describeResponse(lastTags.r)),
        );
      },
    },
    {
      name: `step 18: followers synchronisation (FEP-8fcf) with ${SECOND_USER}, a second local account`,
      needs: ["aliceFollowsPeer", "peerAccountId"],
      async run() {
        if (FEDBLOG_CLI === "") {
          console.log(`# skipped: FEDBLOG_CLI (the fedblog-server binary) is not set; it makes ${SECOND_USER}, whom the step needs`);
          return;
        }
        // bea, a second local account with a token, from the CLI.
        const created = await runCli([
          "accounts", "create", SECOND_USER, "--email", `${SECOND_USER}@example.com`,
          "--password", `bea ${randomUUID()}`, "--confirmed", "--approved",
        ]);
        const tokenRun = created.code === 0 ? await runCli(["tokens", "create", SECOND_USER]) : null;
        const beaToken = tokenRun?.code === 0 ? (tokenRun.stdout.trim().split("\n").pop() ?? "").trim() : "";
        if (
          !c.check(
            created.code === 0 && beaToken !== "",
            `\`fedblog-server accounts create ${SECOND_USER} … --confirmed --approved\` and \`tokens create ${SECOND_USER}\` make a second account with a token`,
            () =>
              created.code !== 0
                ? `accounts create: exit ${created.code}: ${created.stderr.slice(-800)}`
                : `tokens create: exit ${tokenRun?.code}: ${tokenRun?.stderr.slice(-800)}`,
          )
        ) {
          throw new StepStopped();
        }
        const asBea = (method, path, options = {}) => api(method, path, { ...options, token: beaToken });
        const beaAcct = `${SECOND_USER}@${FEDBLOG_DOMAIN}`;
        let bea = null;
        let lookupError = null;
        try {
          bea = await ctx.lookupObject(beaAcct);
        } catch (error) {
          lookupError = String(error);
        }
        if (!c.check(isActor(bea) && bea.id != null, `Fedify's lookupObject("${beaAcct}") finds ${SECOND_USER}'s actor`, () => lookupError ?? `found ${bea?.constructor?.name} ${bea?.id?.href}`)) {
          throw new StepStopped();
        }
        const beaId = bea.id.href;

        // bea follows the peer too; the peer accepts.
        let receivedFrom = received.length;
        let postsFrom = inboxPosts.length;
        const acceptsFrom = acceptsSent.length;
        const followed = await asBea("POST", "/api/v1/follows", { json: { uri: PEER_ACCT } });
        if (!c.check(followed.status === 200 && followed.body?.id === s.peerAccountId, `${SECOND_USER}'s POST /api/v1/follows with uri=${PEER_ACCT} answers the peer's account`, () => describeResponse(followed))) {
          throw new StepStopped();
        }
        const follow = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Follow" && e.actorId === beaId && e.objectId === peerUri.href));
        if (!c.check(follow != null, `a verified Follow from ${SECOND_USER} to the peer arrives within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, follow, beaId, `${SECOND_USER}'s Follow`);
        const accepted = await poll(() => acceptsSent.slice(acceptsFrom).find((a) => a.followId === follow.id && (a.ok || a.error)), 5_000);
        c.check(accepted?.ok === true, `the peer's signed Accept is taken by ${SECOND_USER}'s inbox`, () => accepted?.error ?? "the peer did not get to sending its Accept");
        const relationship = async (asWhom) => {
          const r = await api("GET", "/api/v1/accounts/relationships", { query: [["id[]", s.peerAccountId]], token: asWhom });
          return { r, rel: r.status === 200 && Array.isArray(r.body) ? (r.body.find((x) => x.id === s.peerAccountId) ?? null) : null };
        };
        let last = null;
        const following = await poll(async () => {
          last = await relationship(beaToken);
          return last.rel?.following === true;
        });
        if (!c.check(following, `GET /api/v1/accounts/relationships shows ${SECOND_USER} following the peer`, () => describeResponse(last.r))) {
          throw new StepStopped();
        }
        const followersUri = ctx.getFollowersUri(PEER_ID);
        c.check(
          followers.has(s.aliceId) && followers.has(beaId) && followers.size === 2,
          `the peer's followers are alice and ${SECOND_USER}`,
          () => `followers ${JSON.stringify([...followers.keys()])}`,
        );

        // A followers-only Note, sent with Fedify's Collection-Synchronization header.
        const partialUrl = new URL(followersUri);
        partialUrl.searchParams.set("base-url", `${new URL(FEDBLOG_BASE).origin}/`);
        const sendFollowersOnly = async (text) => {
          const { noteId, create } = newPeerNote(text, { tos: [followersUri], ccs: [] });
          const at = Date.now();
          const getsFrom = collectionGets.length;
          const sent = await sendToFollowers(ctx, create, { syncCollection: true });
          return { noteId, text, sent, at, getsFrom };
        };
        const checkHeader = (sent, ids, whose) => {
          const header = parseSignatureHeader(sent.delivery?.sync);
          c.check(
            header?.collectionId === followersUri.href && header?.url === partialUrl.href && header?.digest === followersDigest(ids),
            `the delivery carries Collection-Synchronization: the peer's followers collection, its partial collection for fedblog (${partialUrl.search}) and the digest of ${whose}`,
            () => `header ${JSON.stringify(sent.delivery?.sync)}; expected url ${partialUrl.href}, digest ${followersDigest(ids)}`,
          );
        };
        const shownToAlice = async (noteId) => {
          const found = await poll(async () => {
            last = await api("GET", "/api/v1/timelines/home", { query: [["limit", "40"]] });
            return last.status === 200 && Array.isArray(last.body) && last.body.find((st) => st.uri === noteId.href);
          });
          return { found, details: () => (last.status === 200 ? `home: ${JSON.stringify(last.body.slice(0, 8).map((st) => `${st.uri} ${st.visibility}`))}` : describeResponse(last)) };
        };
        const partialGets = (from) => collectionGets.slice(from).filter((g) => g.path === followersUri.pathname && g.baseUrl != null);

        // 1. The sets agree (alice and bea on both sides): no synchronisation.
        const agree = await sendFollowersOnly(`Followers only, and we agree ${randomUUID().slice(0, 8)}`);
        c.check(agree.sent.ok, `the peer's signed followers-only Create (syncCollection) is taken by ${agree.sent.delivery?.url ?? "fedblog"}`, agree.sent.details);
        checkHeader(agree.sent, [s.aliceId, beaId], `alice and ${SECOND_USER}`);
        let shown = await shownToAlice(agree.noteId);
        if (!c.check(shown.found && shown.found.visibility === "private", "alice's home timeline shows the followers-only post (visibility private)", shown.details)) {
          throw new StepStopped();
        }
        const agreedStatusId = shown.found.id;
        const seenByBea = await asBea("GET", `/api/v1/statuses/${agreedStatusId}`);
        c.check(seenByBea.status === 200, `${SECOND_USER}, a follower, can see it (GET /api/v1/statuses/:id answers 200)`, () => describeResponse(seenByBea));
        // fedblog reads the header before it applies the Create, and would queue the job then.
        await sleep(SETTLE_MS);
        const early = partialGets(agree.getsFrom);
        c.check(
          early.length === 0,
          `with matching digests, fedblog does not fetch the peer's partial followers collection (none within ${SETTLE_MS / 1000} s)`,
          () => `GETs: ${early.map((g) => `${g.url} -> ${g.status}`).join(", ")}`,
        );

        // 2. The peer forgets bea, as after a lost message: the digests differ.
        followers.delete(beaId);
        console.log(`# the peer forgets ${SECOND_USER} as a follower`);
        receivedFrom = received.length;
        postsFrom = inboxPosts.length;
        const filteredFrom = followersFiltered.length;
        const differ = await sendFollowersOnly(`Followers only, after forgetting ${SECOND_USER} ${randomUUID().slice(0, 8)}`);
        c.check(differ.sent.ok, `the peer's signed followers-only Create (syncCollection) is taken by ${differ.sent.delivery?.url ?? "fedblog"}`, differ.sent.details);
        checkHeader(differ.sent, [s.aliceId], "alice alone");
        shown = await shownToAlice(differ.noteId);
        if (!c.check(shown.found, "alice's home timeline shows the second followers-only post", shown.details)) {
          throw new StepStopped();
        }
        const statusId = shown.found.id;
        const fetched = await poll(() => partialGets(differ.getsFrom).find((g) => g.status != null));
        if (fetched != null) console.log(`# fedblog fetched the partial collection ${fetched.at - differ.at} ms after the delivery`);
        c.check(
          fetched != null && fetched.url === partialUrl.href,
          `fedblog fetches the peer's partial followers collection (${partialUrl.pathname}${partialUrl.search}) within ${WAIT_MS / 1000} s`,
          () => (fetched == null ? `GETs of followers collections: ${JSON.stringify(collectionGets.slice(differ.getsFrom).map((g) => g.url))}` : `GET ${fetched.url}`),
        );
        if (fetched != null) {
          c.check(
            fetched.httpSigKeyId != null && fetched.httpSigOwner?.startsWith(`${FEDBLOG_BASE}/`),
            `the GET carries an HTTP signature (${fetched.signature?.headers ?? fetched.signatureInput ?? "?"}, its query signed) by a key of fedblog's (${fetched.httpSigOwner ?? "?"})`,
            () => `key ${fetched.httpSigKeyId} owned by ${fetched.httpSigOwner}; ${fetched.httpSigError ?? ""}; keyId ${fetched.signature?.keyId}`,
          );
          if (fetched.fedify !== fetched.httpSigOwner) {
            console.log(`# (Fedify 1.5.9's verifyRequest, which leaves the query out of (request-target), says: ${oneLine(fetched.fedify)})`);
          }
          const filtered = followersFiltered.slice(filteredFrom).find((f) => f.identifier === PEER_ID);
          c.check(
            fetched.status === 200 && filtered?.filter === `${new URL(FEDBLOG_BASE).origin}/` && JSON.stringify(filtered.items) === JSON.stringify([s.aliceId]),
            "Fedify hands the peer's followers dispatcher that base URI as its filter, and the answer (200) lists alice alone",
            () => `status ${fetched.status}, dispatcher calls ${JSON.stringify(followersFiltered.slice(filteredFrom))}: ${fetched.responseText}`,
          );
        }
        const undo = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Undo" && e.actorId === beaId && e.object instanceof Follow && e.object.objectId?.href === peerUri.href));
        if (c.check(undo != null, `a verified Undo of ${SECOND_USER}'s Follow reaches the peer within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          checkSignedBy(c, undo, beaId, "the Undo");
        }
        const unfollowed = await poll(async () => {
          last = await relationship(beaToken);
          return last.rel?.following === false && last.rel?.requested !== true;
        });
        c.check(unfollowed, `GET /api/v1/accounts/relationships shows ${SECOND_USER} no longer following the peer`, () => describeResponse(last.r));
        const aliceRel = await relationship(FEDBLOG_TOKEN);
        c.check(aliceRel.rel?.following === true, "and alice, whom the partial collection lists, still following it", () => describeResponse(aliceRel.r));
        let hidden = null;
        const gone = await poll(async () => {
          hidden = await asBea("GET", `/api/v1/statuses/${statusId}`);
          return hidden.status === 404;
        });
        c.check(gone, `${SECOND_USER} cannot see the second followers-only post (GET /api/v1/statuses/:id answers 404)`, () => describeResponse(hidden));
        const earlier = await asBea("GET", `/api/v1/statuses/${agreedStatusId}`);
        c.check(earlier.status === 404, "nor the first one any more (404)", () => describeResponse(earlier));
        const seenByAlice = await api("GET", `/api/v1/statuses/${statusId}`);
        c.check(seenByAlice.status === 200 && seenByAlice.body?.uri === differ.noteId.href, "alice still can (200)", () => describeResponse(seenByAlice));
      },
    },
    {
      name: `step 19: the peer posts with a custom emoji, :${EMOJI_NAME}:`,
      needs: ["aliceFollowsPeer"],
      async run() {
        const iconUrl = emojiImageUrl(EMOJI_NAME).href;
        media.set(new URL(iconUrl).pathname, { bytes: makePng(4, [250, 200, 30]), type: "image/png" });
        const emoji = emojiOf(ctx, EMOJI_NAME);
        const text = `Waving :${EMOJI_NAME}: from the Fedify peer ${randomUUID().slice(0, 8)}`;
        const { noteId, create } = newPeerNote(text, { tags: [emoji] });
        const sent = await sendToFollowers(ctx, create);
        c.check(sent.ok, `the peer's signed Create of a Note with an Emoji tag (:${EMOJI_NAME}:, its icon ${iconUrl}) is taken by ${sent.delivery?.url ?? "fedblog"}`, sent.details);
        let last = null;
        const shown = await poll(async () => {
          last = await api("GET", "/api/v1/timelines/home", { query: [["limit", "40"]] });
          return last.status === 200 && Array.isArray(last.body) && last.body.find((st) => st.uri === noteId.href);
        });
        if (!c.check(shown && textOf(shown.content).includes(`:${EMOJI_NAME}:`), `alice's home timeline shows the post, its text with :${EMOJI_NAME}:`, () => (shown ? `content ${JSON.stringify(shown.content)}` : describeResponse(last)))) {
          throw new StepStopped();
        }
        const entry = (shown.emojis ?? []).find((e) => e.shortcode === EMOJI_NAME);
        c.check(
          entry != null && entry.url === iconUrl,
          `the status's emojis has shortcode ${EMOJI_NAME} with the peer's image as its url`,
          () => `emojis ${JSON.stringify(shown.emojis)}`,
        );
        c.check(
          entry != null && typeof entry.static_url === "string" && entry.static_url !== "" && entry.visible_in_picker === false,
          "the emoji has a static_url and is not visible_in_picker (a remote one)",
          () => `emoji ${JSON.stringify(entry)}`,
        );
      },
    },
    // Quote posts (FEP-044f, as Mastodon 4.5 federates them), before the moves of steps 21
    // and 22 change who follows whom. The peer writes its quote documents as JSON (Fedify 1.5
    // has no vocabulary for them; see QUOTE_CONTEXT), signs them and serves its own.
    {
      name: "step 20a: alice's Notes say who may quote them (interactionPolicy.canQuote)",
      needs: ["peerFollowsAlice"],
      async run() {
        // One post anyone may quote, one nobody but alice may.
        for (const [policy, want, key] of [
          ["public", [AS_PUBLIC], "quotable"],
          ["nobody", [s.aliceId], "unquotable"],
        ]) {
          const text = `Quote policy ${policy} ${randomUUID().slice(0, 8)}`;
          const receivedFrom = received.length;
          const postsFrom = inboxPosts.length;
          const posted = await api("POST", "/api/v1/statuses", {
            json: { status: text, visibility: "public", quote_approval_policy: policy },
          });
          if (
            !c.check(
              posted.status === 200 && posted.body?.uri != null,
              `POST /api/v1/statuses with quote_approval_policy=${policy} posts alice's status`,
              () => describeResponse(posted),
            )
          ) {
            throw new StepStopped();
          }
          s[key] = posted.body;
          const create = await poll(() =>
            received.slice(receivedFrom).find((e) => e.type === "Create" && e.object?.id?.href === posted.body.uri));
          if (
            !c.check(
              create != null,
              `a verified Create of that Note (quote policy ${policy}) arrives within ${WAIT_MS / 1000} s`,
              () => inboxReport(postsFrom, receivedFrom),
            )
          ) {
            throw new StepStopped();
          }
          const delivered = jsonOf(create)?.object;
          const inCreate = canQuoteOf(delivered);
          c.check(
            inCreate != null && sameList(inCreate.automatic, want) && inCreate.manual.length === 0,
            `the Note in the Create (policy ${policy}) has interactionPolicy.canQuote.automaticApproval ${JSON.stringify(want)} and an empty manualApproval`,
            () => `interactionPolicy ${short(delivered?.interactionPolicy ?? null)}`,
          );
          const fetched = await getActivityJson(posted.body.uri);
          const atUri = canQuoteOf(fetched.json);
          c.check(
            fetched.status === 200 && atUri != null && sameList(atUri.automatic, want) && atUri.manual.length === 0,
            `the Note fetched at its id (policy ${policy}) has interactionPolicy.canQuote.automaticApproval ${JSON.stringify(want)} and an empty manualApproval`,
            () => `${fetched.status}: interactionPolicy ${short(fetched.json?.interactionPolicy ?? fetched.text)}`,
          );
          if (policy === "public") {
            const missing = undefinedTerms(fetched.json, QUOTE_NOTE_TERMS);
            c.check(
              missing.length === 0,
              `the fetched Note's @context defines the quote terms (${QUOTE_NOTE_TERMS.join(", ")})`,
              () => `not defined: ${missing.join(", ")}; @context ${short(fetched.json?.["@context"] ?? null)}`,
            );
          }
        }
      },
    },
    {
      name: "step 20b: the peer quotes alice's post: a QuoteRequest, fedblog's Accept and its QuoteAuthorization",
      needs: ["quotable"],
      async run() {
        const target = s.quotable;
        const q = newQuoteNote(`Quoting alice from the Fedify peer ${randomUUID().slice(0, 8)}`, { quote: target.uri });
        const qr = newQuoteRequest(target.uri, q.note);
        const receivedFrom = received.length;
        const postsFrom = inboxPosts.length;
        let error = await sendSigned(ctx, s.alice.inboxId, q.create);
        c.check(error == null, "alice's inbox takes the peer's signed Create of a Note quoting her post (`quote`)", () => error);
        error = await sendSigned(ctx, s.alice.inboxId, qr.json);
        if (!c.check(error == null, "alice's inbox takes the peer's signed QuoteRequest (object her Note, instrument the quoting Note)", () => error)) {
          throw new StepStopped();
        }
        const answer = await poll(() =>
          received.slice(receivedFrom).find((e) => (e.type === "Accept" || e.type === "Reject") && e.objectId === qr.id));
        if (
          !c.check(
            answer?.type === "Accept",
            `a verified Accept of the QuoteRequest (object its id) arrives within ${WAIT_MS / 1000} s`,
            () => (answer != null ? `a ${answer.type} arrived instead: ${short(answer.json)}` : inboxReport(postsFrom, receivedFrom)),
          )
        ) {
          throw new StepStopped();
        }
        c.check(answer.actorId === s.aliceId, "the Accept's actor is alice", () => `actor ${answer.actorId}`);
        checkSignedBy(c, answer, s.aliceId, "the Accept of the QuoteRequest");
        const result = idOf(answer.json.result);
        if (
          !c.check(
            result != null && result.startsWith(`${FEDBLOG_BASE}/`),
            "the Accept's result is an authorization URI on fedblog",
            () => `result ${short(answer.json.result ?? null)}; the Accept ${short(answer.json)}`,
          )
        ) {
          throw new StepStopped();
        }
        s.peerQuote = { noteId: q.noteId, authUri: result };
        const auth = await signedGet(ctx, result);
        if (
          !c.check(
            auth.status === 200 && isActivityJson(auth.contentType) && auth.json != null,
            `a signed GET of the result ${result} answers 200 as application/activity+json`,
            () => `${auth.status}, Content-Type ${JSON.stringify(auth.contentType)}: ${auth.text.slice(0, 300)}`,
          )
        ) {
          throw new StepStopped();
        }
        const doc = auth.json;
        c.check(doc.type === "QuoteAuthorization" && doc.id === result, "it is a QuoteAuthorization whose id is the result", () => `type ${doc.type}, id ${doc.id}`);
        c.check(idOf(doc.attributedTo) === s.aliceId, "its attributedTo is alice's actor", () => `attributedTo ${short(doc.attributedTo ?? null)}`);
        c.check(idOf(doc.interactingObject) === q.noteId, "its interactingObject is the peer's quoting Note", () => `interactingObject ${short(doc.interactingObject ?? null)}, the Note ${q.noteId}`);
        c.check(idOf(doc.interactionTarget) === target.uri, "its interactionTarget is alice's quoted Note", () => `interactionTarget ${short(doc.interactionTarget ?? null)}, alice's Note ${target.uri}`);

        let st = null;
        const counted = await poll(async () => {
          st = await api("GET", `/api/v1/statuses/${target.id}`);
          return st.status === 200 && st.body?.quotes_count === 1;
        });
        c.check(counted, "alice's status shows quotes_count 1", () =>
          st.status === 200 ? `quotes_count ${st.body?.quotes_count}` : describeResponse(st));
        const list = await api("GET", `/api/v1/statuses/${target.id}/quotes`);
        const listed = list.status === 200 && Array.isArray(list.body) ? list.body.find((x) => x.uri === q.noteId) : null;
        c.check(
          listed != null && listed.account?.acct === PEER_ACCT,
          `GET /api/v1/statuses/:id/quotes lists the peer's quoting status, by ${PEER_ACCT}`,
          () => (list.status === 200 ? `listed ${short(list.body.map?.((x) => `${x.id} ${x.uri} by ${x.account?.acct}`) ?? list.body)}` : describeResponse(list)),
        );
        if (listed != null) {
          c.check(
            listed.quote?.state === "accepted" && listed.quote?.quoted_status?.id === target.id,
            "the quoting status's quote is accepted and shows alice's status",
            () => `quote ${short(listed.quote ?? null)}`,
          );
          s.peerQuoteStatusId = listed.id;
        }
        let last = null;
        const notified = await poll(async () => {
          last = await api("GET", "/api/v1/notifications", { query: [["types[]", "quote"]] });
          return last.status === 200 && Array.isArray(last.body) &&
            last.body.find((n) => n.type === "quote" && n.account?.acct === PEER_ACCT && n.status?.uri === q.noteId);
        });
        let all = null;
        if (!notified) all = await api("GET", "/api/v1/notifications", { query: [["limit", "10"]] });
        const listNotifications = (r) =>
          r.status === 200 ? short(r.body.map?.((n) => `${n.type} from ${n.account?.acct} on ${n.status?.uri}`) ?? r.body) : describeResponse(r);
        c.check(
          notified,
          `GET /api/v1/notifications?types[]=quote has a quote from ${PEER_ACCT} about its quoting status`,
          () => `with types[]=quote: ${listNotifications(last)}; the latest of any type: ${listNotifications(all)}`,
        );
      },
    },
    {
      name: "step 20c: a QuoteRequest for alice's post that nobody may quote brings a Reject",
      needs: ["unquotable"],
      async run() {
        const target = s.unquotable;
        const q = newQuoteNote(`Quoting alice's unquotable post ${randomUUID().slice(0, 8)}`, { quote: target.uri });
        const qr = newQuoteRequest(target.uri, q.note);
        const receivedFrom = received.length;
        const postsFrom = inboxPosts.length;
        let error = await sendSigned(ctx, s.alice.inboxId, q.create);
        c.check(error == null, "alice's inbox takes the peer's signed Create of a Note quoting her `nobody` post", () => error);
        error = await sendSigned(ctx, s.alice.inboxId, qr.json);
        if (!c.check(error == null, "alice's inbox takes the peer's signed QuoteRequest for it", () => error)) {
          throw new StepStopped();
        }
        const answer = await poll(() =>
          received.slice(receivedFrom).find((e) => (e.type === "Accept" || e.type === "Reject") && e.objectId === qr.id));
        if (
          !c.check(
            answer?.type === "Reject",
            `a verified Reject of the QuoteRequest (object its id) arrives within ${WAIT_MS / 1000} s`,
            () => (answer != null ? `an ${answer.type} arrived instead: ${short(answer.json)}` : inboxReport(postsFrom, receivedFrom)),
          )
        ) {
          throw new StepStopped();
        }
        c.check(answer.actorId === s.aliceId, "the Reject's actor is alice", () => `actor ${answer.actorId}`);
        checkSignedBy(c, answer, s.aliceId, "the Reject of the QuoteRequest");
        const st = await api("GET", `/api/v1/statuses/${target.id}`);
        c.check(st.status === 200 && st.body?.quotes_count === 0, "alice's `nobody` status still shows quotes_count 0", () =>
          st.status === 200 ? `quotes_count ${st.body?.quotes_count}` : describeResponse(st));
      },
    },
    {
      name: "step 20d: alice quotes the peer's post: a QuoteRequest, the peer's Accept, an Update with quoteAuthorization",
      needs: ["aliceFollowsPeer", "peerFollowsAlice"],
      async run() {
        const p = newQuoteNote(`A post of the peer's that anyone may quote ${randomUUID().slice(0, 8)}`);
        let error = await sendSigned(ctx, s.alice.inboxId, p.create);
        if (
          !c.check(
            error == null,
            "alice's inbox takes the peer's signed Create of a Note anyone may quote (interactionPolicy.canQuote.automaticApproval Public)",
            () => error,
          )
        ) {
          throw new StepStopped();
        }
        let last = null;
        const shown = await poll(async () => {
          last = await api("GET", "/api/v1/timelines/home", { query: [["limit", "40"]] });
          return last.status === 200 && Array.isArray(last.body) && last.body.find((st) => st.uri === p.noteId);
        });
        if (!c.check(shown, "alice's home timeline shows the peer's post", () => describeResponse(last))) {
          throw new StepStopped();
        }
        let receivedFrom = received.length;
        let postsFrom = inboxPosts.length;
        const text = `Quoting the Fedify peer ${randomUUID().slice(0, 8)}`;
        const posted = await api("POST", "/api/v1/statuses", {
          json: { status: text, visibility: "public", quoted_status_id: shown.id },
        });
        if (posted.status !== 200) {
          // What fedblog made of the peer's interactionPolicy, for the failure's details.
          const seen = await api("GET", `/api/v1/statuses/${shown.id}`);
          posted.text += `; the peer's status's quote_approval: ${short(seen.body?.quote_approval ?? seen.text)}`;
        }
        if (
          !c.check(
            posted.status === 200 && posted.body?.quote != null,
            "POST /api/v1/statuses with quoted_status_id = the peer's post answers a status with a quote",
            () => describeResponse(posted),
          )
        ) {
          throw new StepStopped();
        }
        const quoting = posted.body;
        c.check(quoting.quote.state === "pending", "its quote is pending until the peer answers", () => `quote ${short(quoting.quote)}`);
        const request = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "QuoteRequest" && e.actorId === s.aliceId));
        if (
          !c.check(
            request != null,
            `a verified QuoteRequest from alice reaches the peer within ${WAIT_MS / 1000} s`,
            () => inboxReport(postsFrom, receivedFrom),
          )
        ) {
          throw new StepStopped();
        }
        checkSignedBy(c, request, s.aliceId, "the QuoteRequest");
        const rq = request.json;
        if (
          !c.check(
            typeof rq.id === "string" && rq.id.startsWith(`${FEDBLOG_BASE}/`),
            "the QuoteRequest's id is a fedblog URI",
            () => `id ${short(rq.id ?? null)}`,
          )
        ) {
          throw new StepStopped();
        }
        c.check(idOf(rq.object) === p.noteId, "the QuoteRequest's object is the peer's Note", () => `object ${short(rq.object ?? null)}, the Note ${p.noteId}`);
        const instrument = rq.instrument;
        c.check(
          instrument != null && typeof instrument === "object" && instrument.id === quoting.uri &&
            idOf(instrument.attributedTo) === s.aliceId && idOf(instrument.quote) === p.noteId,
          "its instrument embeds alice's quoting Note (its id the status's uri, attributed to alice, `quote` the peer's Note)",
          () => `instrument ${short(instrument ?? null)}; the status's uri ${quoting.uri}`,
        );
        const create = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Create" && e.object?.id?.href === quoting.uri));
        if (c.check(create != null, `a verified Create of alice's quoting Note reaches the peer within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          checkSignedBy(c, create, s.aliceId, "the Create of the quoting Note");
          const note = jsonOf(create)?.object ?? {};
          c.check(
            idOf(note.quote) === p.noteId && idOf(note.quoteUri) === p.noteId && idOf(note._misskey_quote) === p.noteId,
            "the Note in the Create has quote, quoteUri and _misskey_quote = the peer's Note",
            () => `quote ${short(note.quote ?? null)}, quoteUri ${short(note.quoteUri ?? null)}, _misskey_quote ${short(note._misskey_quote ?? null)}`,
          );
          c.check(note.quoteAuthorization == null, "and no quoteAuthorization yet", () => `quoteAuthorization ${short(note.quoteAuthorization)}`);
        }

        // The peer approves: an Accept whose result is its own QuoteAuthorization.
        const authPath = `/users/${PEER_ID}/quote_authorizations/${randomUUID()}`;
        const authUrl = `${ORIGIN}${authPath}`;
        quoteDocs.set(authPath, {
          "@context": QUOTE_CONTEXT,
          id: authUrl,
          type: "QuoteAuthorization",
          attributedTo: peerUri.href,
          interactingObject: quoting.uri,
          interactionTarget: p.noteId,
        });
        const authGetsFrom = quoteDocGets.length;
        receivedFrom = received.length;
        postsFrom = inboxPosts.length;
        const accept = new Accept({
          id: new URL(`${peerUri.href}#accepts/${randomUUID()}`),
          actor: peerUri,
          object: new URL(rq.id),
          result: new URL(authUrl),
        });
        const outFrom = outgoing.length;
        error = await send(ctx, s.alice, accept);
        if (!c.check(error == null, `alice's inbox takes the peer's signed Accept of the QuoteRequest (result ${authUrl})`, () => `${error}; ${lastDelivery(outFrom)}`)) {
          throw new StepStopped();
        }
        let st = null;
        const accepted = await poll(async () => {
          st = await api("GET", `/api/v1/statuses/${quoting.id}`);
          return st.status === 200 && st.body?.quote?.state === "accepted";
        });
        c.check(accepted, "alice's quoting status's quote becomes accepted", () =>
          st.status === 200 ? `quote ${short(st.body?.quote ?? null)}` : describeResponse(st));
        s.aliceQuote = { statusId: quoting.id, uri: quoting.uri, authUrl, authPath };
        const update = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Update" && e.object?.id?.href === quoting.uri));
        if (!c.check(update != null, `a verified Update of alice's quoting Note reaches the peer within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, update, s.aliceId, "the Update of the quoting Note");
        c.check(update.id !== create?.id && update.id != null, "the Update has an activity id of its own (not the Create's)", () => `Update ${update.id}, Create ${create?.id}`);
        const updated = jsonOf(update)?.object ?? {};
        c.check(
          idOf(updated.quoteAuthorization) === authUrl && idOf(updated.quote) === p.noteId,
          "the updated Note carries quoteAuthorization = the peer's authorization, and still quote",
          () => `quoteAuthorization ${short(updated.quoteAuthorization ?? null)}, quote ${short(updated.quote ?? null)}`,
        );
        const gets = quoteDocGets.slice(authGetsFrom).filter((g) => g.path === authPath);
        console.log(
          `# fedblog fetched the peer's QuoteAuthorization ${gets.length} time(s)` +
            gets.map((g) => ` (${g.httpSigOwner != null ? `signed by ${g.httpSigOwner}` : g.httpSigError})`).join(""),
        );
      },
    },
    {
      name: "step 20e: the peer withdraws its QuoteAuthorization (a Delete): alice's quote is revoked",
      needs: ["aliceQuote"],
      async run() {
        quoteDocs.delete(s.aliceQuote.authPath); // now 404, as a withdrawn authorization is
        const del = new Delete({
          id: new URL(`${peerUri.href}#deletes/${randomUUID()}`),
          actor: peerUri,
          object: new URL(s.aliceQuote.authUrl),
        });
        const outFrom = outgoing.length;
        const error = await send(ctx, s.alice, del);
        if (!c.check(error == null, "alice's inbox takes the peer's signed Delete of its QuoteAuthorization", () => `${error}; ${lastDelivery(outFrom)}`)) {
          throw new StepStopped();
        }
        let st = null;
        const revoked = await poll(async () => {
          st = await api("GET", `/api/v1/statuses/${s.aliceQuote.statusId}`);
          return st.status === 200 && st.body?.quote?.state === "revoked";
        });
        c.check(revoked, "alice's quoting status's quote becomes revoked", () =>
          st.status === 200 ? `quote ${short(st.body?.quote ?? null)}` : describeResponse(st));
      },
    },
    {
      name: "step 20f: alice revokes the peer's quote: a Delete of her QuoteAuthorization reaches the peer",
      needs: ["quotable", "peerQuote", "peerQuoteStatusId"],
      async run() {
        const authUri = s.peerQuote.authUri;
        const receivedFrom = received.length;
        const postsFrom = inboxPosts.length;
        const r = await api("POST", `/api/v1/statuses/${s.quotable.id}/quotes/${s.peerQuoteStatusId}/revoke`);
        if (
          !c.check(
            r.status === 200 && r.body?.id === s.peerQuoteStatusId,
            "POST /api/v1/statuses/:id/quotes/:quoting_status_id/revoke answers the peer's quoting status",
            () => describeResponse(r),
          )
        ) {
          throw new StepStopped();
        }
        c.check(r.body.quote?.state === "revoked", "its quote is now revoked", () => `quote ${short(r.body.quote ?? null)}`);
        const del = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Delete" && (e.objectId === authUri || idOf(jsonOf(e)?.object) === authUri)));
        if (!c.check(del != null, `a verified Delete of the authorization ${authUri} reaches the peer within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        c.check(del.actorId === s.aliceId, "the Delete's actor is alice", () => `actor ${del.actorId}`);
        checkSignedBy(c, del, s.aliceId, "the Delete of the authorization");
        const gone = await signedGet(ctx, authUri);
        c.check(gone.status === 404, "a signed GET of the authorization URI now answers 404", () => `${gone.status}: ${gone.text.slice(0, 300)}`);
        let st = null;
        const uncounted = await poll(async () => {
          st = await api("GET", `/api/v1/statuses/${s.quotable.id}`);
          return st.status === 200 && st.body?.quotes_count === 0;
        });
        c.check(uncounted, "alice's status's quotes_count drops back to 0", () =>
          st.status === 200 ? `quotes_count ${st.body?.quotes_count}` : describeResponse(st));
      },
    },
    {
      name: "step 20g: alice changes who may quote her post: an Update with the new interactionPolicy reaches the peer",
      needs: ["quotable"],
      async run() {
        const target = s.quotable;
        const followersUri = s.alice.followersId?.href ?? null;
        const seenIds = new Set(received.map((e) => e.id));
        const receivedFrom = received.length;
        const postsFrom = inboxPosts.length;
        const r = await api("PUT", `/api/v1/statuses/${target.id}/interaction_policy`, { json: { quote_approval_policy: "followers" } });
        if (
          !c.check(
            r.status === 200 && Array.isArray(r.body?.quote_approval?.automatic) && r.body.quote_approval.automatic.includes("followers"),
            "PUT /api/v1/statuses/:id/interaction_policy with quote_approval_policy=followers answers the status, quote_approval.automatic [followers]",
            () => describeResponse(r),
          )
        ) {
          throw new StepStopped();
        }
        const update = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Update" && e.object?.id?.href === target.uri));
        if (!c.check(update != null, `a verified Update of alice's Note reaches the peer within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, update, s.aliceId, "the Update of the policy");
        c.check(update.id != null && !seenIds.has(update.id), "the Update has an activity id not seen before", () => `id ${update.id}`);
        const note = jsonOf(update)?.object;
        const policy = canQuoteOf(note);
        c.check(
          policy != null && sameList(policy.automatic, [followersUri]) && policy.manual.length === 0,
          `the Note in the Update has interactionPolicy.canQuote.automaticApproval [alice's followers ${followersUri}]`,
          () => `interactionPolicy ${short(note?.interactionPolicy ?? null)}`,
        );
        const fetched = await getActivityJson(target.uri);
        const atUri = canQuoteOf(fetched.json);
        c.check(
          atUri != null && sameList(atUri.automatic, [followersUri]),
          "the Note fetched at its id has the new policy too",
          () => `${fetched.status}: interactionPolicy ${short(fetched.json?.interactionPolicy ?? fetched.text)}`,
        );
      },
    },
    {
      name: `step 21: the peer moves to ${PEER2_ACCT}`,
      needs: ["aliceFollowsPeer", "peerAccountId"],
      async run() {
        const peer2Uri = ctx.getActorUri(PEER2_ID);
        const p2 = actors.get(PEER2_ID);
        p2.aliases = [peerUri];
        // The new account has a pinned post and a featured hashtag already: fedblog reads its
        // featured collections when it first stores it (here, when it looks the Move's target up).
        const uuid = randomUUID();
        const pinId = ctx.getObjectUri(Note, { identifier: PEER2_ID, id: uuid });
        const now = Temporal.Now.instant();
        const pin = new Note({
          id: pinId,
          attribution: peer2Uri,
          content: `<p>Pinned at the new account ${uuid.slice(0, 8)}</p>`,
          tos: [PUBLIC_COLLECTION],
          ccs: [ctx.getFollowersUri(PEER2_ID)],
          published: now,
          url: pinId,
        });
        notes.set(uuid, pin);
        p2.featured = [pin];
        const tag = `peertwo${randomUUID().slice(0, 6)}`;
        p2.featuredTags = [tag];
        actors.get(PEER_ID).successor = peer2Uri;

        const receivedFrom = received.length;
        const postsFrom = inboxPosts.length;
        const acceptsFrom = acceptsSent.length;
        const outFrom = outgoing.length;
        const move = new Move({ id: new URL(`${peerUri.href}#moves/${randomUUID()}`), actor: peerUri, object: peerUri, target: peer2Uri });
        const error = await send(ctx, s.alice, move);
        if (!c.check(error == null, `alice's inbox takes the peer's signed Move to ${PEER2_ACCT} (which names the peer in alsoKnownAs)`, () => `${error}; ${lastDelivery(outFrom)}`)) {
          throw new StepStopped();
        }
        const follow = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Follow" && e.actorId === s.aliceId && e.objectId === peer2Uri.href));
        if (!c.check(follow != null, `a verified Follow from alice to ${PEER2_ACCT} arrives within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, follow, s.aliceId, "the Follow of peer2");
        const accepted = await poll(() => acceptsSent.slice(acceptsFrom).find((a) => a.followId === follow.id && (a.ok || a.error)), 5_000);
        c.check(
          accepted?.ok === true && accepted.of === PEER2_ID,
          `${PEER2_ACCT}'s signed Accept is taken by alice's inbox`,
          () => accepted?.error ?? "peer2 did not get to sending its Accept",
        );
        const undo = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Undo" && e.actorId === s.aliceId && e.object instanceof Follow && e.object.objectId?.href === peerUri.href));
        c.check(undo != null, "alice's follow of the old account ends: a verified Undo of her Follow reaches the peer", () => inboxReport(postsFrom, receivedFrom));
        let last = null;
        const moved = await poll(async () => {
          last = await api("GET", `/api/v1/accounts/${s.peerAccountId}`);
          return last.status === 200 && last.body?.moved != null && last.body.moved;
        });
        if (!c.check(moved?.acct === PEER2_ACCT, `GET /api/v1/accounts/:id of the peer has moved: ${PEER2_ACCT}`, () => describeResponse(last))) {
          throw new StepStopped();
        }
        const peer2AccountId = moved.id;
        const ids = [["id[]", peer2AccountId], ["id[]", s.peerAccountId]];
        const rel = await poll(async () => {
          last = await api("GET", "/api/v1/accounts/relationships", { query: ids });
          if (last.status !== 200 || !Array.isArray(last.body)) return false;
          const to = last.body.find((r) => r.id === peer2AccountId);
          const from = last.body.find((r) => r.id === s.peerAccountId);
          return to?.following === true && from?.following === false;
        });
        c.check(rel, `GET /api/v1/accounts/relationships shows alice following ${PEER2_ACCT}, and no longer the peer`, () =>
          last.status === 200 ? `relationships ${JSON.stringify(last.body)}` : describeResponse(last));
        const pinned = await poll(async () => {
          last = await api("GET", `/api/v1/accounts/${peer2AccountId}/statuses`, { query: [["pinned", "true"]] });
          return last.status === 200 && Array.isArray(last.body) && last.body.some((st) => st.uri === pinId.href);
        });
        c.check(pinned, `fedblog read ${PEER2_ACCT}'s featured collection on first storing it: ?pinned=true lists its pinned post`, () => describeResponse(last));
        const tagged = await poll(async () => {
          last = await api("GET", `/api/v1/accounts/${peer2AccountId}/featured_tags`);
          return last.status === 200 && Array.isArray(last.body) && last.body.some((t) => String(t.name).toLowerCase() === tag);
        });
        c.check(tagged, `and its featuredTags collection: GET /api/v1/accounts/:id/featured_tags lists #${tag}`, () => describeResponse(last));
      },
    },
    {
      name: `step 22: alice moves to ${HEIR_ACCT} (the fedblog-server CLI)`,
      needs: ["peerFollowsAlice", "aliceAccountId"],
      async run() {
        if (FEDBLOG_CLI === "") {
          console.log("# skipped: FEDBLOG_CLI (the fedblog-server binary) is not set");
          return;
        }
        const heirUri = ctx.getActorUri(HEIR_ID);
        actors.get(HEIR_ID).aliases = [s.alice.id];
        let receivedFrom = received.length;
        let postsFrom = inboxPosts.length;
        const aliased = await runCli(["accounts", "aliases", FEDBLOG_USER, heirUri.href]);
        c.check(
          aliased.code === 0 && aliased.stdout.includes(heirUri.href),
          `\`fedblog-server accounts aliases ${FEDBLOG_USER} ${heirUri.href}\` sets alice's aliases`,
          () => `exit ${aliased.code}: ${aliased.stdout} ${aliased.stderr.slice(-800)}`,
        );
        const update = await poll(() =>
          received.slice(receivedFrom).find((e) => e.type === "Update" && e.actorId === s.aliceId && isActor(e.object) && e.object.id?.href === s.aliceId));
        c.check(
          update != null && update.object.aliasIds.some((u) => u.href === heirUri.href),
          "a verified Update of alice's actor reaches the peer, its alsoKnownAs listing alice2",
          () => (update == null ? inboxReport(postsFrom, receivedFrom) : `alsoKnownAs ${JSON.stringify(update.object.aliasIds.map((u) => u.href))}`),
        );
        if (update != null) checkSignedBy(c, update, s.aliceId, "the Update of alice's actor");
        const aliasedActor = await lookupFresh(ctx, s.aliceId);
        c.check(
          aliasedActor.object?.aliasIds?.some((u) => u.href === heirUri.href),
          "alice's actor, looked up afresh through Fedify, lists alice2 in alsoKnownAs",
          () => aliasedActor.error ?? `alsoKnownAs ${JSON.stringify(aliasedActor.object?.aliasIds?.map((u) => u.href))}`,
        );

        receivedFrom = received.length;
        postsFrom = inboxPosts.length;
        const moved = await runCli(["accounts", "move", FEDBLOG_USER, HEIR_ACCT]);
        if (!c.check(moved.code === 0, `\`fedblog-server accounts move ${FEDBLOG_USER} ${HEIR_ACCT}\` moves alice`, () => `exit ${moved.code}: ${moved.stdout} ${moved.stderr.slice(-800)}`)) {
          throw new StepStopped();
        }
        const move = await poll(() => received.slice(receivedFrom).find((e) => e.activity instanceof Move && e.actorId === s.aliceId));
        if (!c.check(move != null, `a verified Move from alice reaches the peer (her follower) within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, move, s.aliceId, "the Move");
        c.check(
          move.objectId === s.aliceId && move.activity.targetId?.href === heirUri.href,
          "the Move's object is alice and its target alice2",
          () => `object ${move.objectId}, target ${move.activity.targetId?.href}`,
        );
        const movedActor = await lookupFresh(ctx, s.aliceId);
        c.check(
          movedActor.object?.successorId?.href === heirUri.href,
          "alice's actor, looked up afresh through Fedify, has movedTo alice2",
          () => movedActor.error ?? `movedTo ${movedActor.object?.successorId?.href}`,
        );
        const account = await api("GET", `/api/v1/accounts/${s.aliceAccountId}`);
        c.check(
          account.status === 200 && account.body?.moved?.acct === HEIR_ACCT,
          `GET /api/v1/accounts/:id of alice has moved: ${HEIR_ACCT}`,
          () => describeResponse(account),
        );
      },
    },

    {
      name: `step 23: a fedblog admin suspends ${THIRD_USER}, whom the peer follows, then lifts it`,
      needs: [],
      async run() {
        if (FEDBLOG_CLI === "") {
          console.log(`# skipped: FEDBLOG_CLI (the fedblog-server binary) is not set; it makes ${THIRD_USER} and ${ADMIN_USER}`);
          return;
        }
        // cleo with a token, and an administrator with a token of the admin scopes.
        const made = async (name, role, scopes) => {
          const created = await runCli([
            "accounts", "create", name, "--email", `${name}@example.com`,
            "--password", `${name} ${randomUUID()}`, "--role", role, "--confirmed", "--approved",
          ]);
          const tokenRun = created.code === 0 ? await runCli(["tokens", "create", name, "--scopes", scopes]) : null;
          const token = tokenRun?.code === 0 ? (tokenRun.stdout.trim().split("\n").pop() ?? "").trim() : "";
          c.check(
            created.code === 0 && token !== "",
            `\`fedblog-server accounts create ${name} … --role ${role}\` and \`tokens create ${name} --scopes "${scopes}"\` make an account with a token`,
            () =>
              created.code !== 0
                ? `accounts create: exit ${created.code}: ${created.stderr.slice(-800)}`
                : `tokens create: exit ${tokenRun?.code}: ${tokenRun?.stderr.slice(-800)}`,
          );
          return token;
        };
        const cleoToken = await made(THIRD_USER, "user", "read write follow");
        const adminToken = await made(ADMIN_USER, "admin", "read write admin:read admin:write");
        if (cleoToken === "" || adminToken === "") throw new StepStopped();
        s.cleoToken = cleoToken;
        s.adminToken = adminToken;
        const me = await api("GET", "/api/v1/accounts/verify_credentials", { token: cleoToken });
        if (!c.check(me.status === 200 && me.body?.id != null, `${THIRD_USER}'s token answers her account`, () => describeResponse(me))) {
          throw new StepStopped();
        }
        const cleoAccountId = me.body.id;
        const cleoAcct = `${THIRD_USER}@${FEDBLOG_DOMAIN}`;
        let cleo = null;
        let lookupError = null;
        try {
          cleo = await ctx.lookupObject(cleoAcct);
        } catch (error) {
          lookupError = String(error);
        }
        if (!c.check(isActor(cleo) && cleo.id != null, `Fedify's lookupObject("${cleoAcct}") finds ${THIRD_USER}'s actor`, () => lookupError ?? `found ${cleo?.constructor?.name}`)) {
          throw new StepStopped();
        }
        const cleoId = cleo.id.href;

        // The peer follows cleo.
        const uuid = randomUUID();
        const follow = new Follow({ id: ctx.getObjectUri(Follow, { identifier: PEER_ID, id: uuid }), actor: peerUri, object: cleo.id });
        follows.set(uuid, follow);
        let receivedFrom = received.length;
        let postsFrom = inboxPosts.length;
        const outFrom = outgoing.length;
        const error = await send(ctx, cleo, follow);
        if (!c.check(error == null, `${THIRD_USER}'s inbox takes the peer's signed Follow`, () => `${error}; ${lastDelivery(outFrom)}`)) {
          throw new StepStopped();
        }
        const accept = await poll(() => received.slice(receivedFrom).find((e) => e.type === "Accept" && e.objectId === follow.id.href));
        if (!c.check(accept != null, `a verified Accept from ${THIRD_USER} arrives within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }

        /** The next verified Update of cleo's actor, with the JSON it came as. */
        const actorUpdate = async () => {
          const update = await poll(() =>
            received.slice(receivedFrom).find((e) => e.type === "Update" && e.actorId === cleoId && isActor(e.object) && e.object.id?.href === cleoId));
          const raw = update == null ? null : (signatureOf(update)?.json ?? null);
          return { update, raw: raw?.object ?? null };
        };

        // Suspended: an Update of her actor, saying so, reaches the peer.
        receivedFrom = received.length;
        postsFrom = inboxPosts.length;
        const suspended = await api("POST", `/api/v1/admin/accounts/${cleoAccountId}/action`, { json: { type: "suspend" }, token: adminToken });
        if (!c.check(suspended.status === 200, `the admin's POST /api/v1/admin/accounts/:id/action type=suspend answers 200`, () => describeResponse(suspended))) {
          throw new StepStopped();
        }
        let { update, raw } = await actorUpdate();
        if (!c.check(update != null, `a verified Update of ${THIRD_USER}'s actor reaches the peer (her follower) within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, update, cleoId, `the Update of ${THIRD_USER}'s suspended actor`);
        c.check(update.object.suspended === true, "Fedify reads the actor the Update carries as suspended (toot:suspended true)", () => `suspended ${update.object.suspended}; ${JSON.stringify(raw)?.slice(0, 400)}`);
        c.check(
          raw?.suspended === true && raw?.name === THIRD_USER && raw?.summary === "" && raw?.icon == null && raw?.publicKey?.publicKeyPem != null,
          "the suspended actor is bare (its name the username, no bio, no avatar) but keeps its key",
          () => JSON.stringify(raw)?.slice(0, 600),
        );
        const fresh = await lookupFresh(ctx, cleoId);
        c.check(fresh.object?.suspended === true, `${THIRD_USER}'s actor, looked up afresh through Fedify, is suspended`, () => fresh.error ?? `suspended ${fresh.object?.suspended}`);
        const gone = await api("GET", `/api/v1/accounts/${cleoAccountId}`);
        c.check(gone.status === 410, `GET /api/v1/accounts/:id of ${THIRD_USER} answers 410 meanwhile`, () => describeResponse(gone));

        // Lifted: another Update, no longer saying so.
        receivedFrom = received.length;
        postsFrom = inboxPosts.length;
        const lifted = await api("POST", `/api/v1/admin/accounts/${cleoAccountId}/unsuspend`, { token: adminToken });
        if (!c.check(lifted.status === 200, "the admin's POST /api/v1/admin/accounts/:id/unsuspend answers 200", () => describeResponse(lifted))) {
          throw new StepStopped();
        }
        ({ update, raw } = await actorUpdate());
        if (!c.check(update != null, `a verified Update of ${THIRD_USER}'s actor reaches the peer again within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        checkSignedBy(c, update, cleoId, `the Update of ${THIRD_USER}'s actor once unsuspended`);
        c.check(update.object.suspended !== true && raw != null && !("suspended" in raw), "the actor it carries is no longer suspended", () => JSON.stringify(raw)?.slice(0, 400));
        const back = await api("GET", `/api/v1/accounts/${cleoAccountId}`);
        c.check(back.status === 200 && back.body?.acct === THIRD_USER, `GET /api/v1/accounts/:id of ${THIRD_USER} answers 200 again`, () => describeResponse(back));
      },
    },
    {
      name: `step 24: ${THIRD_USER} reports the peer with forward: a Flag reaches it`,
      needs: ["cleoToken", "peerAccountId"],
      async run() {
        const comment = `Forwarded from fedblog ${randomUUID().slice(0, 8)}`;
        const statusIds = s.peerPost?.statusId == null ? [] : [s.peerPost.statusId];
        const receivedFrom = received.length;
        const postsFrom = inboxPosts.length;
        const filed = await api("POST", "/api/v1/reports", {
          json: { account_id: s.peerAccountId, status_ids: statusIds, comment, forward: true },
          token: s.cleoToken,
        });
        if (!c.check(filed.status === 200 && filed.body?.forwarded === true, "POST /api/v1/reports about the peer with forward=true answers the report, forwarded", () => describeResponse(filed))) {
          throw new StepStopped();
        }
        const flag = await poll(() => received.slice(receivedFrom).find((e) => e.type === "Flag"));
        if (!c.check(flag != null, `a verified Flag reaches the peer within ${WAIT_MS / 1000} s`, () => inboxReport(postsFrom, receivedFrom))) {
          throw new StepStopped();
        }
        const instanceActor = `${FEDBLOG_BASE}/actor`;
        c.check(flag.actorId === instanceActor, `the Flag's actor is fedblog's instance actor ${instanceActor}`, () => `actor ${flag.actorId}`);
        checkSignedBy(c, flag, instanceActor, "the Flag");
        const objects = flag.activity.objectIds.map((u) => u.href);
        const expected = [peerUri.href, ...(s.peerPost == null ? [] : [s.peerPost.note.id.href])];
        c.check(
          JSON.stringify(objects) === JSON.stringify(expected),
          "its objects are the peer's actor and the reported post",
          () => `objects ${JSON.stringify(objects)}, expected ${JSON.stringify(expected)}`,
        );
        const content = flag.activity.content?.toString() ?? null;
        c.check(content === comment, "its content is the report's comment", () => `content ${JSON.stringify(content)}`);
      },
    },
    {
      name: "step 25: the peer's Flag about alice becomes a report in fedblog's admin API",
      needs: ["adminToken", "status", "aliceAccountId"],
      async run() {
        const comment = `The peer reports alice ${randomUUID().slice(0, 8)}`;
        const flag = new Flag({
          id: new URL(`${peerUri.href}#flags/${randomUUID()}`),
          actor: peerUri,
          objects: [s.alice.id, new URL(s.status.uri)],
          content: comment,
        });
        const outFrom = outgoing.length;
        const reports = async () => {
          const r = await api("GET", "/api/v1/admin/reports", { token: s.adminToken });
          return { r, found: r.status === 200 && Array.isArray(r.body) ? r.body.filter((x) => x.comment === comment) : [] };
        };
        for (const time of ["", " again (the same id)"]) {
          const error = await send(ctx, s.alice, flag);
          if (!c.check(error == null, `alice's inbox takes the peer's signed Flag${time}`, () => `${error}; ${lastDelivery(outFrom)}`)) {
            throw new StepStopped();
          }
        }
        let last = null;
        const listed = await poll(async () => {
          last = await reports();
          return last.found.length > 0 ? last.found : null;
        });
        if (!c.check(listed != null, `GET /api/v1/admin/reports lists a report with the Flag's comment within ${WAIT_MS / 1000} s`, () => describeResponse(last.r))) {
          throw new StepStopped();
        }
        await sleep(SETTLE_MS);
        last = await reports();
        c.check(last.found.length === 1, "the Flag sent twice made one report", () => `${last.found.length} reports`);
        const report = last.found[0] ?? listed[0];
        c.check(report.target_account?.id === s.aliceAccountId, "the report is about alice", () => `target ${JSON.stringify(report.target_account)?.slice(0, 300)}`);
        c.check(
          report.account?.username === PEER_ID && report.account?.domain === PEER_HOST,
          `the reporter is the peer (${PEER_ACCT})`,
          () => `account ${JSON.stringify(report.account)?.slice(0, 300)}`,
        );
        c.check(
          Array.isArray(report.statuses) && report.statuses.length === 1 && report.statuses[0].id === s.status.id,
          "the report names alice's status the Flag named",
          () => `statuses ${JSON.stringify(report.statuses?.map((x) => x.id))}`,
        );
        c.check(report.category === "other" && report.forwarded === false, "its category is other (a Flag carries none), and it is not forwarded", () => `category ${report.category}, forwarded ${report.forwarded}`);
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
