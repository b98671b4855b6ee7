import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findUser, retailFixture } from '../../../helpers/retail.js';

/** The name with its first plain vowel accented: "Carlos" → "Cárlos". */
const accented = (name: string) => name.replace(/[aeiou]/, (v) => ({ a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü' })[v]!);

t.test('find_user_id_by_name_zip', async (t) => {
  const server = await startServer(t);
  const user = findUser((u) => /[aeiou]/.test(u.name.first_name) && /[aeiou]/.test(u.name.last_name));
  const { first_name, last_name } = user.name;
  const zip = user.address.zip;

  t.test('returns the user id for an exact name and zip', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'find_user_id_by_name_zip', { first_name, last_name, zip }, session);
    t.equal(reply.status, 200);
    t.equal(reply.body, user.user_id);
  });

  t.test('names match regardless of case and accents', async (t) => {
    const session = await server.newSession();
    const variants = [
      { first_name: first_name.toUpperCase(), last_name: last_name.toLowerCase() },
      { first_name: accented(first_name), last_name: accented(last_name) },
      { first_name: accented(first_name).toUpperCase(), last_name },
    ];
    for (const names of variants) {
      const reply = await server.call('retail', 'find_user_id_by_name_zip', { ...names, zip }, session);
      t.equal(reply.status, 200, JSON.stringify(names));
      t.equal(reply.body, user.user_id);
    }
  });

  t.test('the zip tells apart two customers with the same name', async (t) => {
    const session = await server.newSession();
    const users = Object.values(retailFixture().users);
    const namesake = users.find((u) =>
      users.some((v) => v !== u && v.name.first_name === u.name.first_name && v.name.last_name === u.name.last_name && v.address.zip !== u.address.zip),
    )!;
    const other = users.find((v) => v !== namesake && v.name.first_name === namesake.name.first_name && v.name.last_name === namesake.name.last_name)!;
    for (const person of [namesake, other]) {
      const reply = await server.call('retail', 'find_user_id_by_name_zip', { ...person.name, zip: person.address.zip }, session);
      t.equal(reply.body, person.user_id, person.address.zip);
    }
  });

  t.test('the zip must match exactly; a wrong name or zip is "User not found" (404)', async (t) => {
    const session = await server.newSession();
    const cases = [
      { first_name, last_name, zip: ` ${zip}` },
      { first_name, last_name, zip: zip.slice(1) },
      { first_name, last_name, zip: `${zip}-0000` },
      { first_name, last_name: `${last_name}x`, zip },
      { first_name: last_name, last_name: first_name, zip },
    ];
    for (const args of cases) {
      const reply = await server.call('retail', 'find_user_id_by_name_zip', args, session);
      t.equal(reply.status, 404, JSON.stringify(args));
      t.equal(reply.body.detail, 'User not found');
    }
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'lookups change nothing');
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: { first_name, last_name }, field: 'zip' },
      { args: { first_name, last_name, zip: Number(zip) }, field: 'zip' },
      { args: { first_name: null, last_name, zip }, field: 'first_name' },
      { args: { first_name, last_name, zip, email: user.email }, field: 'email' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'find_user_id_by_name_zip', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
