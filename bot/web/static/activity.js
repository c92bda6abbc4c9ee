// The board as a Discord Activity: the page runs in Discord's frame and signs in through the
// Embedded App SDK (discord-sdk.js, vendored): it waits for Discord (ready), asks for the
// user's leave to know who they are (authorize, scope identify), has the bot's server
// exchange the code it gets (POST /api/activity/session, which says which match the
// Activity's channel holds and, for its players, their seat), then tells Discord the
// Activity is signed in (authenticate; should Discord refuse it, the board goes on all the
// same).

import { DiscordSDK } from "./discord-sdk.js";
import { t } from "./words.js";

const READY_MS = 20000; // how long the page waits for Discord's client to say it is there

/** ``promise``, or the error ``words`` once ``ms`` have passed without it. */
function within(promise, ms, words) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(words)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The seat the Discord user signed in to: {match, pass, token?, side?} (the pass has the
 * page's requests counted as the user's, not as Discord's proxy's address); an Error saying
 * what went wrong and what to do, in the page's words or the board's, for the page to show. */
export async function signIn(clientId) {
  let sdk;
  try {
    sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  } catch {
    throw new Error(t("outside-discord")); // no frame_id, instance_id: not launched by Discord
  }
  await within(sdk.ready(), READY_MS, t("discord-silent"));
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    }));
  } catch {
    throw new Error(t("allow-it"));
  }
  let response;
  try {
    response = await fetch("/api/activity/session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, instance: sdk.instanceId }),
      cache: "no-store",
    });
  } catch {
    throw new Error(t("sign-in-failed")); // the browser's own words ("Failed to fetch") are no help
  }
  let body = {};
  try {
    body = await response.json();
  } catch {
    // no words of the board's (a proxy's error page): said below in the page's own
  }
  if (!response.ok) throw new Error(body.error || t("sign-in-failed"));
  try {
    await sdk.commands.authenticate({ access_token: body.access_token });
  } catch {
    // Discord keeps its SDK's other commands from an Activity it did not authenticate; the
    // board uses none of them: the seat the server gave is all it needs.
  }
  return {
    match: String(body.match),
    pass: body.pass || "",
    token: body.token || "",
    side: body.side || "",
  };
}
