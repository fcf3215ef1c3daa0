// How a test (or a script) knows a process it started is serving: the
// line it prints on stdout with its URL. One place for JavaScript and
// TypeScript; end2end/serving.py is Python's.
"use strict";

/** `askdesk serve`'s announcement; its group is the URL. */
exports.ASKDESK_SERVING = /^askdesk is serving on (http\S+)$/m;

/**
 * The first group of `pattern` once `child`'s stdout holds a match; a
 * refusal, with what it printed, if it exits first. `also` hears every
 * chunk of stderr (a test's log).
 */
exports.announced = function announced(child, pattern, name, also = () => {}) {
  let out = "";
  let err = "";
  child.stderr?.on("data", (chunk) => { err += chunk; also(String(chunk)); });
  return new Promise((ready, failed) => {
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const found = pattern.exec(out);
      if (found) ready(found[1]);
    });
    child.on("exit", (code) => failed(new Error(`${name} exited (${code}) before it served:\n${out}\n${err}`)));
  });
};
