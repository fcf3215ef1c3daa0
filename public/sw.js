// askdesk's service worker: shows the pushes the desk sends (Web Push) as
// notifications, and answers from their buttons. A push's data is
// {title, body, url, tag, actionUrl, actions: [{label, token}], code}; the
// notification of an ask replaces the one before it (same tag).
self.addEventListener("push", (event) => {
  const push = event.data ? event.data.json() : null;
  if (!push) return;
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(push.title, {
        body: push.body,
        tag: push.tag,
        data: push,
        actions: (push.actions || []).map((action, index) => ({
          action: String(index),
          title: action.label,
        })),
      }),
      warm(push.code),
    ]),
  );
});

// Fetches the ask page's bundle (`code`, a path whose name carries its
// hash, which the server lets be kept for good) into the browser's cache
// while the notification shows, so the ask opened from it wakes without
// downloading it. The page's own request for it is then served from the
// cache; a worker with no fetch handler adds nothing to any other request.
// Never fails the push.
function warm(code) {
  if (typeof code !== "string" || !code.startsWith("/pkg/")) return Promise.resolve();
  return fetch(code, { priority: "low" })
    .then((reply) => reply.arrayBuffer())
    .catch(() => {});
}

// A click on the notification opens the ask; a click on one of its
// buttons answers with that option and its action token, once, through the
// desk like every answer (the ask's page shows the outcome; a refusal
// opens it). Returns when done.
function clicked(notification, action) {
  const push = notification.data || {};
  notification.close();
  const chosen = (push.actions || [])[Number(action)];
  if (action !== "" && chosen) {
    return fetch(push.actionUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ label: chosen.label, token: chosen.token }),
    }).then((reply) => {
      if (!reply.ok && push.url) return self.clients.openWindow(push.url);
    });
  }
  return push.url ? self.clients.openWindow(push.url) : Promise.resolve();
}

self.addEventListener("notificationclick", (event) => {
  event.waitUntil(clicked(event.notification, event.action));
});
