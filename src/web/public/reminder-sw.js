/*
 * Daily reminders in the service worker (issue 20, item 4), imported by the generated worker
 * (vite.config.ts, workbox.importScripts). A push carries the reminder, encrypted for this browser;
 * it is shown with a "Turn off reminders" action that works with one tap, signed in or not (the
 * message carries a signed token), and tells any open page so its settings show the change.
 * Plain JavaScript: it is served as written. The handlers' work is on `self.harbourReminders` so a
 * browser test can run it with a real notification.
 */
/* eslint-disable */
(function () {
  var OFF_ACTION = 'turn-off';

  function show(message) {
    if (!message || typeof message.title !== 'string' || typeof message.body !== 'string') return Promise.resolve();
    return self.registration.showNotification(message.title, {
      body: message.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: 'en-GB',
      // One reminder on screen at a time: a newer one replaces an older one left unread.
      tag: 'daily-reminder',
      data: { url: typeof message.url === 'string' ? message.url : '/', offToken: message.offToken },
      actions: [{ action: OFF_ACTION, title: 'Turn off reminders' }],
    });
  }

  function tellPages(type) {
    return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (pages) {
      pages.forEach(function (page) {
        page.postMessage({ type: type });
      });
    });
  }

  function turnOff(offToken) {
    return fetch('/api/reminders/off', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: offToken }) })
      .then(function (response) {
        if (!response.ok) throw new Error('reminders/off answered ' + response.status);
        return Promise.all([
          tellPages('reminders-off'),
          self.registration.showNotification('Reminders are off.', { body: 'You can turn them on again in Account › Settings.', icon: '/icons/icon-192.png', tag: 'daily-reminder', data: { url: '/account?tab=settings' } }),
        ]);
      })
      .catch(function () {
        // Offline, or the server could not be reached: open the settings so the person can do it there.
        return self.clients.openWindow('/account?tab=settings');
      });
  }

  function open(url) {
    var target = new URL(url || '/', self.location.origin);
    if (target.origin !== self.location.origin) target = new URL('/', self.location.origin);
    return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (pages) {
      for (var i = 0; i < pages.length; i += 1) {
        // A page this worker does not control cannot be navigated by it: then a new window.
        if ('focus' in pages[i]) {
          return pages[i]
            .navigate(target.href)
            .then(function (page) { return page ? page.focus() : self.clients.openWindow(target.href); })
            .catch(function () { return self.clients.openWindow(target.href); });
        }
      }
      return self.clients.openWindow(target.href);
    });
  }

  function click(action, data) {
    data = data || {};
    if (action === OFF_ACTION && data.offToken) return turnOff(data.offToken);
    return open(data.url);
  }

  self.harbourReminders = { show: show, click: click };

  self.addEventListener('push', function (event) {
    var message = null;
    try {
      message = event.data ? event.data.json() : null;
    } catch (error) {
      message = null;
    }
    event.waitUntil(show(message));
  });

  self.addEventListener('notificationclick', function (event) {
    event.notification.close();
    event.waitUntil(click(event.action, event.notification.data));
  });

  // The push service renewed this browser's subscription: register the new one (with the session's cookie).
  self.addEventListener('pushsubscriptionchange', function (event) {
    var options = event.oldSubscription && event.oldSubscription.options;
    if (!options) return;
    event.waitUntil(
      self.registration.pushManager.subscribe(options).then(function (subscription) {
        return fetch('/api/reminders/devices', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(subscription.toJSON()) });
      }),
    );
  });
})();
