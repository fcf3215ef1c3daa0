// askdesk's service worker: shows the pushes the desk sends (Web Push) as
// notifications, and answers from their buttons. A push's data is
// {title, body, url, tag, actionUrl, actions: [{label, token}]}; the
// notification of an ask replaces the one before it (same tag).
self.addEventListener("push", (event) => {
  const push = event.data ? event.data.json() : null;
  if (!push) return;
  event.waitUntil(
    self.registration.showNotification(push.title, {
      body: push.body,
      tag: push.tag,
      data: push,
      actions: (push.actions || []).map((action, index) => ({
        action: String(index),
        title: action.label,
      })),
    }),
  );
});

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
