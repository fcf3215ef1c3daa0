-- MCP's streamable HTTP sessions, kept for every instance: a client's next
-- request may reach another instance (a balancer without stickiness), which
-- restores the session from here. `state` is the client's `initialize`
-- parameters as JSON.
CREATE TABLE mcp_sessions (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
