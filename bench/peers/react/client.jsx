// The browser half: hydrates the server-rendered form with the ask the page
// carries as JSON.
import { hydrateRoot } from "react-dom/client";
import { App } from "./app.jsx";

const ask = JSON.parse(document.getElementById("ask").textContent);
hydrateRoot(document.getElementById("root"), <App ask={ask} />);
