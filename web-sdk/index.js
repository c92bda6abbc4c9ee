// What the web board's Activity mode takes of the Embedded App SDK (bot/web/static/activity.js).
export { DiscordSDK } from "@discord/embedded-app-sdk";
