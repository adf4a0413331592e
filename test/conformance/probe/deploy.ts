// deno serve: the port and host come from its command line.
import { toDeploy } from 'rove/deno-deploy';
import { makeApp, probeOptions } from './app.ts';

export default toDeploy(makeApp(probeOptions((name) => Deno.env.get(name))));
