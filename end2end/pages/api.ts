import { expect, type APIRequestContext } from "@playwright/test";

/** The request every browser test answers: multi-select, single-select, free text. */
export const releaseAsk = {
  title: "Release plan",
  agent: "e2e-agent",
  questions: [
    {
      id: "features", header: "Features", question: "Which features should ship?", multiSelect: true,
      options: [
        { label: "Auth", description: "Sign-in with a token" },
        { label: "Logging", description: "Structured logs on stderr" },
        { label: "Metrics" },
      ],
    },
    {
      id: "db", header: "Database", question: "Which database?",
      options: [{ label: "SQLite" }, { label: "PostgreSQL" }],
    },
    { id: "notes", question: "Anything else we should know?" },
  ],
};

/** The HTTP API as an agent uses it: no browser, no Origin. */
export class Api {
  constructor(private readonly request: APIRequestContext) {}

  async createAsk(body: object = releaseAsk): Promise<string> {
    const response = await this.request.post("/api/v1/asks", { data: body });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()).id;
  }

  async ask(id: string): Promise<any> {
    const response = await this.request.get(`/api/v1/asks/${id}`);
    expect(response.status()).toBe(200);
    return response.json();
  }
}
