// The bench views, in memory so that every runtime (workerd has no
// filesystem) renders the same compiled templates.
/** The test-view-filter scenario's page: the built-in date filter and the app's currency filter. */
export const FILTER_VIEW =
  "<ul>{{#each items as item}}<li>{{ item.name }}: {{ item.at | date(dateFormat) }}, {{ item.price | currency('EUR') }}</li>{{/each}}</ul>";

export const templates: Record<string, string> = {
  'hello.dve': 'Hello {{ name }}.',
  'include.dve': '{{> partial.dve}}',
  'partial.dve': 'Hello {{ name }}.',
  'each-meta.dve': '{{#each items as item}}({{ @index }}/{{ @length }} {{#if @first}}F{{else}}-{{/if}}{{#if @last}}L{{else}}-{{/if}}={{ item }});{{/each}}',
  'expr.dve': "Hello {{ user?.name ?? 'Guest' }}.\n{{#if user?.isAdmin ? true : false}}ADMIN{{else}}USER{{/if}}\nSum={{ 1 + 2 * 3 }}",
  'filter.dve': FILTER_VIEW,
  'fortunes.dve':
    '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>' +
    '{{#each fortunes as f}}<tr><td>{{ f.id }}</td><td>{{ f.message }}</td></tr>{{/each}}' +
    '</table></body></html>',
};
