// The host page of tests/app.spec.ts: what a web host does with an MCP
// App's document (the MCP Apps extension, 2026-01-26). It frames the
// document in a sandbox of its own (an opaque origin) under the policy
// of the host it plays (POLICIES), connects the official AppBridge
// to it, sends the tool's input and result once the view is initialized,
// and forwards the view's tools/call to the agent's MCP client (the test,
// through window.hostCallTool), refusing tools whose visibility leaves
// out "app", as the extension requires of hosts.
const { AppBridge, PostMessageTransport } = AppsHost;

// The policy each host puts on an app's frame. The extension's reference
// host builds its own from the resource's _meta.ui.csp (the extension's
// restrictive default, the declared domains added); the others are the
// policies those hosts publish, whose script-src is what decides here:
// VS Code's and Goose's allow inline scripts and nothing that compiles
// code, Claude's adds 'unsafe-eval' (which lets WebAssembly compile).
function reference(csp) {
  const list = (domains) => (domains ?? []).join(" ");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${list(csp?.resourceDomains)}`.trim(),
    `style-src 'self' 'unsafe-inline' ${list(csp?.resourceDomains)}`.trim(),
    `img-src 'self' data: ${list(csp?.resourceDomains)}`.trim(),
    `connect-src 'self' ${list(csp?.connectDomains)}`.trim(),
    `frame-src ${list(csp?.frameDomains) || "'none'"}`,
    `base-uri ${list(csp?.baseUriDomains) || "'self'"}`,
    "object-src 'none'",
  ].join("; ");
}
const POLICIES = {
  reference,
  vscode: () =>
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
    "img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; media-src 'self' data:",
  goose: () =>
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
    "img-src 'self' data: https:; connect-src 'self'; form-action 'none'; object-src 'none'",
  claude: () =>
    "default-src 'none'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:; " +
    "style-src 'self' 'unsafe-inline' blob: data:; img-src 'self' data: blob:; connect-src 'self'",
  // A host that runs no scripts in apps at all.
  none: () => "default-src 'none'; style-src 'unsafe-inline'",
};

window.showApp = async (app) => {
  window.lastApp = app;
  const { html, csp, policy, input, result, tools, locale, look } = app;
  const frame = document.createElement("iframe");
  frame.title = "askdesk";
  frame.setAttribute("sandbox", "allow-scripts allow-forms");
  const meta = `<meta http-equiv="Content-Security-Policy" content="${POLICIES[policy](csp)}">`;
  frame.srcdoc = html.replace("<head>", `<head>${meta}`);
  document.body.append(frame);
  const bridge = new AppBridge(
    null,
    { name: "askdesk-e2e-host", version: "1.0.0" },
    { serverTools: {}, openLinks: {} },
    { hostContext: { locale, displayMode: "inline", availableDisplayModes: ["inline"], ...look } },
  );
  const visible = new Map(tools.map((t) => [t.name, t._meta?.ui?.visibility ?? ["model", "app"]]));
  bridge.oncalltool = async (params) => {
    if (!(visible.get(params.name) ?? []).includes("app")) {
      throw new Error(`${params.name} is not a tool the app may call`);
    }
    return window.hostCallTool(params);
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  // The host sends nothing before the view says it is initialized.
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: input });
    await bridge.sendToolResult(result);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  window.appBridge = bridge;
};

// What a host does when the conversation scrolls the view away and back,
// or reloads: the frame goes without a word, and a new one shows the same
// tool call's view.
window.showAgain = async () => {
  document.querySelector("iframe")?.remove();
  await window.appBridge?.close();
  await window.showApp(window.lastApp);
};
