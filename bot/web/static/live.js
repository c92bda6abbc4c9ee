// Live updates: the server sends an event `state` ({"version": V}) whenever the match changes;
// the page then fetches the state again. The public page uses EventSource (which reconnects by
// itself); the player page reads the stream with fetch, so that its token goes in the
// Authorization header and never in an address, and so does an Activity's page (its pass is
// a header too: `headers` is a function, read again at each connection, since the page renews
// its pass as it goes). The connection's status is said as a key
// ("live", "reconnecting", "gone", "nothing"): the page words it, unless the server said why
// it refused the stream (429: the address follows as many boards as it may), whose words come
// with the key, the page then trying again once the refusal's Retry-After has passed. A
// stream refused with 404 (no such match: a mistyped address) is never asked for again.

const RETRY_MS = 2000;
const NO_SUCH_MATCH = 404;

/** Follow `url`'s events, calling `onState(data)` for each `state` event and
 * `onStatus(key, why)` when the connection comes and goes (`why`: the server's words for a
 * refusal, else ""). Returns a function that stops. */
export function follow(url, headers, onState, onStatus) {
  return headers ? followFetched(url, headers, onState, onStatus) : followSource(url, onState, onStatus);
}

function followSource(url, onState, onStatus) {
  let stopped = false;
  let source = null;
  function open() {
    source = new EventSource(url);
    source.addEventListener("open", () => onStatus("live", ""));
    source.addEventListener("error", async () => {
      onStatus("reconnecting", "");
      // A refused stream (429: the address holds as many as it may; 404: no such match) is
      // one EventSource gives up on for good, without its answer; the page asks once more to
      // read why, says it, and tries again when the answer says, as it does a player's (a
      // match there is not, never).
      if (source.readyState !== EventSource.CLOSED || stopped) return;
      const refused = await refusal(url);
      if (refused && refused.never) {
        stopped = true;
        onStatus("nothing", "");
        return;
      }
      if (refused) onStatus("reconnecting", refused.why);
      setTimeout(() => {
        if (!stopped) open();
      }, refused ? refused.wait : RETRY_MS);
    });
    source.addEventListener("state", (event) => onState(parseData(event.data)));
  }
  async function refusal(url) {
    const controller = new AbortController();
    try {
      const response = await fetch(url, { signal: controller.signal, cache: "no-store" });
      if (response.status === NO_SUCH_MATCH) return { never: true };
      return response.status === 429 ? await refused(response) : null;
    } catch {
      return null;
    } finally {
      controller.abort(); // a stream that opens after all is not read: EventSource's is
    }
  }
  open();
  return () => {
    stopped = true;
    source.close();
  };
}

function followFetched(url, headers, onState, onStatus) {
  let stopped = false;
  let controller = null;
  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const sent = headers(); // as they are now: an Activity's pass is renewed as it goes
        const response = await fetch(url, { headers: sent, signal: controller.signal, cache: "no-store" });
        if (response.status === 401) {
          onStatus("gone", "");
          return;
        }
        if (response.status === NO_SUCH_MATCH) {
          onStatus("nothing", "");
          return;
        }
        if (response.status === 429) {
          const { why, wait } = await refused(response);
          onStatus("reconnecting", why);
          await sleep(wait);
          continue;
        }
        if (!response.ok || !response.body) throw new Error(String(response.status));
        onStatus("live", "");
        await readEvents(response.body, onState);
      } catch (error) {
        if (stopped) return;
      }
      onStatus("reconnecting", "");
      await sleep(RETRY_MS);
    }
  }
  run();
  return () => {
    stopped = true;
    if (controller) controller.abort();
  };
}

/** A refused stream's answer: the server's words, and how long to wait (its Retry-After). */
async function refused(response) {
  let body = {};
  try {
    body = await response.json();
  } catch {
    body = {};
  }
  const seconds = Number(response.headers.get("Retry-After"));
  return { why: body.error || "", wait: seconds > 0 ? seconds * 1000 : RETRY_MS };
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Read an event stream (text/event-stream) to its end, calling `onState` per `state` event. */
async function readEvents(body, onState) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseBlock(block);
      if (event.name === "state") onState(parseData(event.data));
    }
  }
}

function parseBlock(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  return { name, data: data.join("\n") };
}

function parseData(text) {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
