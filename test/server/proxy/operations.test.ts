import { readFileSync } from 'node:fs';
import t from 'tap';
import { OperationMap, patternOperation } from '../../../server/proxy/operations.js';

const crm = new OperationMap(JSON.parse(readFileSync('examples/upstream-crm/openapi.json', 'utf8')));

t.test('an OpenAPI document names each request by its operationId', async (t) => {
  t.same(crm.operations.map((operation) => operation.name).sort(), [
    'close_deal',
    'create_contact',
    'delete_contact',
    'get_contact',
    'health',
    'list_contacts',
    'list_deals',
    'update_contact',
  ]);
  t.match(crm.match('GET', '/contacts/c_001'), { name: 'get_contact', path: '/contacts/{id}', writes: false });
  t.match(crm.match('get', '/contacts'), { name: 'list_contacts' });
  t.match(crm.match('POST', '/deals/d_003/close'), { name: 'close_deal', writes: true });
  t.match(crm.match('PATCH', '/contacts/c_002/'), { name: 'update_contact' }, 'a trailing slash');
  t.equal(crm.match('PUT', '/contacts/c_001'), undefined, 'a method the document lacks');
  t.equal(crm.match('GET', '/contacts/c_001/notes'), undefined, 'a path the document lacks');
  t.equal(crm.match('GET', '/__proto__'), undefined);
});

t.test('literal segments win over parameters; names become tool words', async (t) => {
  const map = new OperationMap({
    paths: {
      '/items/{id}': { get: { operationId: 'getItem' } },
      '/items/search': { get: { operationId: 'searchItems' } },
      '/items/{id}/parts.json': { get: {} },
    },
  });
  t.match(map.match('GET', '/items/search'), { name: 'search_items' });
  t.match(map.match('GET', '/items/42'), { name: 'get_item' });
  t.match(map.match('GET', '/items/42/parts.json'), { name: 'get_items_id_parts_json' }, 'no operationId: method and template');
  t.equal(map.match('GET', '/items/42/partsXjson'), undefined, 'a dot in a template is literal');
  t.same(new OperationMap(null).operations, [], 'no document, no operations');
});

t.test('without a document, the method and the path pattern name the operation', async (t) => {
  t.same(patternOperation('get', '/contacts/c_001'), { name: 'get_contacts_id', method: 'GET', path: '/contacts/{id}', writes: false });
  t.same(patternOperation('POST', '/deals/d_3/close'), { name: 'post_deals_id_close', method: 'POST', path: '/deals/{id}/close', writes: true });
  t.equal(patternOperation('GET', '/contacts').name, 'get_contacts');
  t.equal(patternOperation('GET', '/files/aGVsbG8td29ybGQtdG9rZW4tbG9uZw').path, '/files/{id}', 'a long opaque token is an id');
  t.equal(patternOperation('DELETE', '/').name, 'delete');
});

t.test('a parameter inside a segment (`download{extension}`, `{name}.{format}`) matches, and its values are read', async (t) => {
  const { pathValues } = await import('../../../server/proxy/operations.js');
  const map = new OperationMap({
    paths: {
      '/files/{id}/download{extension}': { get: { operationId: 'download' } },
      '/reports/{id}': { get: { operationId: 'report_by_id' } },
      '/reports/{name}.{format}': { get: { operationId: 'report' } },
    },
  });
  t.match(map.match('GET', '/files/f_1/download.gif'), { name: 'download' });
  t.same(pathValues('/files/{id}/download{extension}', '/files/f_1/download.gif'), { id: 'f_1', extension: '.gif' });
  t.equal(map.match('GET', '/files/f_1/download'), undefined, 'a parameter holds a character at least');
  t.equal(map.match('GET', '/files/f_1/upload.gif'), undefined, "the segment's own text must be there");
  t.match(map.match('GET', '/reports/q3.tar.gz'), { name: 'report' });
  t.same(pathValues('/reports/{name}.{format}', '/reports/q3.tar.gz'), { name: 'q3', format: 'tar.gz' }, 'each ends where its next text first fits');
  t.same(pathValues('/reports/{name}.{format}', '/reports/a%20b.csv'), { name: 'a b', format: 'csv' }, 'decoded');
  t.match(map.match('GET', '/reports/q3'), { name: 'report_by_id' }, 'no dot: the whole-segment parameter (declared first, tried after)');
  const long = `/reports/${'a.'.repeat(20_000)}`;
  t.match(map.match('GET', long), { name: 'report' }, 'a long segment is read in one pass');
});
