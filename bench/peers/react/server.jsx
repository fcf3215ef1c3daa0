// The build-time half: the form's HTML, as a React server would send it.
import { renderToString } from "react-dom/server";
import { App } from "./app.jsx";

export const render = (ask) => renderToString(<App ask={ask} />);
