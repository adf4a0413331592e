// deno serve: the port and host come from its command line.
import { toDeploy } from 'rove/deno-deploy';
import { makeApp } from './app.ts';

export default toDeploy(makeApp());
