import { Redirect, Route, Switch } from 'wouter';
import { CONSOLE_ROUTES, ROUTE_ALIASES } from '../routes.ts';
import { ConsolePage, Landing } from './ConsolePage.tsx';

/** The route table under the console layout (spec §2); any other path goes to '/'. */
export function ConsoleRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Landing />
      </Route>
      {CONSOLE_ROUTES.map((route) => (
        <Route key={route.path} path={`/${route.path}`}>
          <ConsolePage route={route} />
        </Route>
      ))}
      {Object.entries(ROUTE_ALIASES).map(([path, to]) => (
        <Route key={path} path={`/${path}`}>
          <Redirect to={to} replace />
        </Route>
      ))}
      <Route>
        <Redirect to="/" replace />
      </Route>
    </Switch>
  );
}
