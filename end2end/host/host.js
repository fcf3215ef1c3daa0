// The host page of tests/app.spec.ts: what a web host does with an MCP
// App's document (the MCP Apps extension, 2026-01-26). It frames the
// document in a sandbox of its own (an opaque origin) under the policy
// built from the resource's _meta.ui.csp, connects the official AppBridge
// to it, sends the tool's input and result once the view is initialized,
// and forwards the view's tools/call to the agent's MCP client (the test,
// through window.hostCallTool), refusing tools whose visibility leaves
// out "app", as the extension requires of hosts.
const { AppBridge, PostMessageTransport } = AppsHost;

function policy(csp, wasm) {
  const list = (domains) => (domains ?? []).join(" ");
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline'${wasm ? " 'wasm-unsafe-eval'" : ""} ${list(csp?.resourceDomains)}`.trim(),
    `style-src 'unsafe-inline' ${list(csp?.resourceDomains)}`.trim(),
    `img-src data: ${list(csp?.resourceDomains)}`.trim(),
    `connect-src ${list(csp?.connectDomains) || "'none'"}`,
    `frame-src ${list(csp?.frameDomains) || "'none'"}`,
    `base-uri ${list(csp?.baseUriDomains) || "'none'"}`,
    "object-src 'none'",
  ].join("; ");
}

window.showApp = async ({ html, csp, wasm, input, result, tools, locale, look }) => {
  const frame = document.createElement("iframe");
  frame.title = "askdesk";
  frame.setAttribute("sandbox", "allow-scripts allow-forms");
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(csp, wasm)}">`;
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
