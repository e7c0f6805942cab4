import { startColdLoad } from './app/cold-start.ts';

// A second entry, loaded `async` from index.html: it runs as soon as its own few modules have
// arrived, not after React, Mantine and the app have been fetched and evaluated, so a signed-in
// page's code and first calls are on their way that much sooner.
startColdLoad(location.hash);
