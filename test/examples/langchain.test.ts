import t from 'tap';
import { runLoop } from '../../examples/langchain/agent.js';
import { addBagPrompt, addBagScript } from '../../examples/langchain/script.js';
import { ScriptedChatModel } from '../../examples/langchain/scripted-model.js';
import { WildtoolsSession } from '../../examples/shared/wildtools.js';
import { findReservation, methodsOf, userOf } from '../helpers/airline.js';
import { startServer } from '../helpers/server.js';

t.test('a LangChain tool-calling loop adds a checked bag, reading a refusal on the way', async (t) => {
  const server = await startServer(t);
  const reservation = findReservation(
    (r, user) => r.status !== 'cancelled' && methodsOf(user, 'certificate').length > 0 && methodsOf(user, 'credit_card').length > 0,
  );
  const card = methodsOf(userOf(reservation), 'credit_card')[0]!;
  const session = await WildtoolsSession.create(server.origin);
  const model = new ScriptedChatModel(addBagScript({ reservationId: reservation.reservation_id }));

  const final = await runLoop({ session, domain: 'airline', prompt: addBagPrompt({ reservationId: reservation.reservation_id }), model });

  t.same(
    model.seen.map((seen) => seen.name),
    ['get_reservation_details', 'get_user_details', 'update_reservation_baggages', 'update_reservation_baggages'],
    'every tool output was handed back to the model',
  );
  t.match(model.seen[2]?.output, /^Error: HTTP 422 .*"code":"certificate_not_allowed"/, 'the refusal is the tool output, not an exception');
  const diff = await session.diff();
  t.match(diff['airline'], [
    {
      table: 'reservations',
      id: reservation.reservation_id,
      op: 'update',
      after: {
        total_baggages: reservation.total_baggages + 1,
        nonfree_baggages: reservation.nonfree_baggages + 1,
        payment_history: [...reservation.payment_history, { payment_id: card.id, amount: 50 }],
      },
    },
  ]);
  t.equal(diff['airline']?.length, 1, 'the reservation is the only change');
  t.equal(final, `Reservation ${reservation.reservation_id} now has ${reservation.total_baggages + 1} checked bags.`);
});

t.test('the loop tells the model about a tool it does not have, and which argument breaks the schema', async (t) => {
  const server = await startServer(t);
  const session = await WildtoolsSession.create(server.origin);
  const model = new ScriptedChatModel((seen) =>
    seen.length === 0
      ? {
          calls: [
            { name: 'no_such_tool', args: {} },
            { name: 'get_reservation_details', args: { reservation_id: 42 } },
          ],
        }
      : { text: 'done' },
  );

  t.equal(await runLoop({ session, domain: 'airline', prompt: 'anything', model }), 'done');
  t.match(model.seen, [
    { name: 'no_such_tool', output: 'Error: there is no tool named no_such_tool' },
    { name: 'get_reservation_details', output: /^Error: HTTP 400 .*"field":"reservation_id"/ },
  ]);
});
