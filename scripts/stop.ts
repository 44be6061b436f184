/**
 * npm stop. On Windows and macOS: office-addin-debugging stop (the sideloaded
 * add-in is removed and its dev server stopped); npm start, still running, sees
 * its dev server gone and stops the local API server too (scripts/start.ts).
 * Elsewhere nothing was sideloaded (office-addin-debugging would only say
 * "Platform not supported"): it says what stops the preview instead.
 */
import { EXCEL_PLATFORMS, stopDebugging } from './office-debugging';

const ctrlC = 'The preview (npm start -- --browser) and the Excel on the web server (npm run start:web) stop with Ctrl+C in their terminal.';
if (EXCEL_PLATFORMS.includes(process.platform)) {
  process.exitCode = await stopDebugging();
  console.log(ctrlC);
} else {
  console.log(`Nothing is sideloaded on ${process.platform}: npm start serves the preview here, and Ctrl+C in its terminal stops it (npm run start:web too).`);
}
