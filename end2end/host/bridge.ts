// The MCP Apps host's side of the view, bundled by esbuild for the host
// page of tests/app.spec.ts: the official AppBridge, unchanged.
export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
