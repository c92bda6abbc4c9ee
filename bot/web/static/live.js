// Live updates: the server sends an event `state` ({"version": V}) whenever the match changes;
// the page then fetches the state again. The public page uses EventSource (which reconnects by
// itself); the player page reads the stream with fetch, so that its token goes in the
// Authorization header and never in an address, and so does an Activity's page (its pass is
// a header too). The connection's status is said as a key
// ("live", "reconnecting", "gone"): the page words it.

const RETRY_MS = 2000;

/** Follow `url`'s events, calling `onState(data)` for each `state` event and
 * `onStatus(key)` when the connection comes and goes. Returns a function that stops. */
export function follow(url, headers, onState, onStatus) {
  return headers ? followFetched(url, headers, onState, onStatus) : followSource(url, onState, onStatus);
}

function followSource(url, onState, onStatus) {
  let stopped = false;
  let source = null;
  function open() {
    source = new EventSource(url);
    source.addEventListener("open", () => onStatus("live"));
    source.addEventListener("error", () => {
      onStatus("reconnecting");
      // A refused stream (429: the address holds as many as it may) is one EventSource
      // gives up on for good; the page tries again, as it does a player's.
      if (source.readyState === EventSource.CLOSED && !stopped) {
        setTimeout(() => {
          if (!stopped) open();
        }, RETRY_MS);
      }
    });
    source.addEventListener("state", (event) => onState(parseData(event.data)));
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
        const response = await fetch(url, { headers, signal: controller.signal, cache: "no-store" });
        if (response.status === 401) {
          onStatus("gone");
          return;
        }
        if (!response.ok || !response.body) throw new Error(String(response.status));
        onStatus("live");
        await readEvents(response.body, onState);
      } catch (error) {
        if (stopped) return;
      }
      onStatus("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
  run();
  return () => {
    stopped = true;
    if (controller) controller.abort();
  };
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
