// Client detection through NodeInfo: megalodon (npm, pinned in package.json) decides which API a
// server speaks from its NodeInfo alone (`detector`) and refuses a `software.name` it does not
// know ("Unknown SNS") unless `metadata.upstream.name` is `mastodon`. This runs that detector
// against a fedblog server on loopback (FEDBLOG_BASE), then uses the client it picks with a
// token (FEDBLOG_TOKEN), and runs the same detector against a stand-in serving fedblog's own
// NodeInfo without `metadata.upstream`, to show that the key is what it goes by.
//
//   FEDBLOG_BASE=http://127.0.0.1:PORT FEDBLOG_TOKEN=... FEDBLOG_USER=alice node detect.mjs
//
// Prints one line per check and ends with "N passed, M failed"; exits 1 if any failed.

import http from 'node:http';

import axios from 'axios';
import generator, { detector } from 'megalodon';

const BASE = process.env.FEDBLOG_BASE;
const TOKEN = process.env.FEDBLOG_TOKEN;
const USER = process.env.FEDBLOG_USER;
if (!BASE || !TOKEN || !USER) {
  console.error('detect.mjs: FEDBLOG_BASE, FEDBLOG_TOKEN and FEDBLOG_USER are needed');
  process.exit(2);
}

// Loopback only: no proxy from the environment, and a short timeout.
const client = axios.create({ timeout: 20000, proxy: false });

let passed = 0;
let failed = 0;

async function check(name, run) {
  try {
    await run();
    passed += 1;
    console.log(`ok    ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL  ${name}: ${e && e.message ? e.message : e}`);
  }
}

function ensure(condition, message) {
  if (!condition) throw new Error(message);
}

/** The NodeInfo document the discovery document of `base` links first (2.0 or 2.1). */
async function nodeinfoOf(base) {
  const links = (await client.get(`${base}/.well-known/nodeinfo`)).data.links;
  const link = links.find((l) => /\/ns\/schema\/2\.[01]$/.test(l.rel));
  ensure(link, `no NodeInfo 2.0 or 2.1 link in ${JSON.stringify(links)}`);
  return (await client.get(link.href)).data;
}

let nodeinfo = null;

await check('NodeInfo keeps fedblog\'s own name and names Mastodon as its upstream', async () => {
  nodeinfo = await nodeinfoOf(BASE);
  ensure(
    nodeinfo.software.name === 'fedblog',
    `software.name is ${JSON.stringify(nodeinfo.software.name)}, not "fedblog"`,
  );
  ensure(
    nodeinfo.metadata?.upstream?.name === 'mastodon',
    `metadata.upstream is ${JSON.stringify(nodeinfo.metadata?.upstream)}`,
  );
});

await check('megalodon\'s detector takes fedblog for Mastodon', async () => {
  const sns = await detector(BASE, client);
  ensure(sns === 'mastodon', `detector answered ${JSON.stringify(sns)}`);
});

await check('the Mastodon client megalodon picks reads the instance and the token\'s account', async () => {
  const sns = await detector(BASE, client);
  const api = generator(sns, BASE, TOKEN, 'fedblog-nodeinfo-test', client);
  const instance = await api.getInstance();
  ensure(instance.status === 200, `getInstance answered ${instance.status}`);
  ensure(
    typeof instance.data.version === 'string' && instance.data.version.includes('compatible'),
    `the instance's version is ${JSON.stringify(instance.data.version)}`,
  );
  const me = await api.verifyAccountCredentials();
  ensure(me.data.username === USER, `verify_credentials is ${me.data.username}, not ${USER}`);
});

// The stand-in: fedblog's own NodeInfo, less `metadata.upstream`, on another loopback port.
await check('without metadata.upstream the detector refuses the same NodeInfo (Unknown SNS)', async () => {
  ensure(nodeinfo, 'fedblog\'s NodeInfo was not read');
  const stripped = structuredClone(nodeinfo);
  delete stripped.metadata.upstream;
  const server = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${server.address().port}`;
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/.well-known/nodeinfo') {
      res.end(JSON.stringify({
        links: [{ rel: 'http://nodeinfo.diaspora.software/ns/schema/2.0', href: `${base}/nodeinfo/2.0` }],
      }));
    } else if (req.url === '/nodeinfo/2.0') {
      res.end(JSON.stringify(stripped));
    } else {
      res.statusCode = 404;
      res.end('{"error":"Record not found"}');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    let answer = null;
    let error = null;
    try {
      answer = await detector(`http://127.0.0.1:${server.address().port}`, client);
    } catch (e) {
      error = e;
    }
    ensure(
      error && /Unknown SNS/.test(error.message),
      `the detector answered ${JSON.stringify(answer)} (${error ? error.message : 'no error'})`,
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
