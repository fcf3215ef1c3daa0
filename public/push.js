// "Notify this device" on the desk: registers askdesk's service worker,
// subscribes this browser with the server's VAPID key and hands the
// subscription to the server. The button's data-* attributes hold the
// page's words for each outcome.
const button = document.getElementById("push-subscribe");
const state = document.getElementById("push-state");
const say = (key, detail) => {
  state.textContent = button.dataset[key] + (detail ? ` (${detail})` : "");
};
const key = (text) => {
  const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4))
    .replace(/-/g, "+")
    .replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
};

async function subscribe() {
  button.disabled = true;
  try {
    if ((await Notification.requestPermission()) !== "granted") {
      say("denied");
      return;
    }
    const registration = await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
    const reply = await fetch("/api/v1/push/key");
    if (!reply.ok) throw new Error(`key: ${reply.status}`);
    const { publicKey } = await reply.json();
    const subscription =
      (await registration.pushManager.getSubscription()) ||
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: key(publicKey),
      }));
    const saved = await fetch("/api/v1/push/subscriptions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(subscription),
    });
    if (!saved.ok) throw new Error((await saved.json()).message);
    say("subscribed");
  } catch (error) {
    say("failed", error.message);
  } finally {
    button.disabled = false;
  }
}

if ("serviceWorker" in navigator && "PushManager" in window && "Notification" in window) {
  button.hidden = false;
  button.addEventListener("click", subscribe);
} else {
  say("unsupported");
}
