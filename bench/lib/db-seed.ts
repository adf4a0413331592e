// The load test's database: the seed benchmark's users, and TechEmpower's World and Fortune.
import postgres from 'postgres';
import { FORTUNES } from '../shared/fixtures.ts';

/** The seed benchmark's users table and TechEmpower's World and Fortune tables. */
export async function seed(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table users (id serial primary key, full_name text not null, email text not null)`;
    await sql`insert into users (full_name, email) select 'User ' || i, 'user' || i || '@example.com' from generate_series(1, 10000) i`;
    await sql`create table world (id integer primary key, randomnumber integer not null default 0)`;
    await sql`insert into world (id, randomnumber) select i, 1 + floor(random() * 10000)::int from generate_series(1, 10000) i`;
    await sql`create table fortune (id integer primary key, message varchar(2048) not null)`;
    await sql`insert into fortune ${sql(FORTUNES.map((f) => ({ id: f.id, message: f.message })))}`;
    await sql`vacuum analyze`;
  } finally {
    await sql.end();
  }
}
