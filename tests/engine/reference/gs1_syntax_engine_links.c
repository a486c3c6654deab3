/*
 * Asks GS1's Syntax Engine (https://github.com/gs1/gs1-syntax-engine, its C
 * library in src/c-lib) for the Digital Link URI of each case on standard
 * input; reference_order_test.cpp compares the service's URIs with them.
 *
 * Not built by the project (the Syntax Engine is neither a Debian nor an npm
 * package, so CI cannot build this): regenerate.sh beside it builds it against
 * a checkout and rewrites syntax_engine_links.tsv. By hand:
 *
 *   make -C <checkout>/src/c-lib libstatic
 *   cc -Wall -Wextra -Werror -I<checkout>/src/c-lib gs1_syntax_engine_links.c \
 *      <checkout>/src/c-lib/build/libgs1encoders.a -o gs1_syntax_engine_links
 *   ./gs1_syntax_engine_links <checkout>/src/c-lib/gs1-syntax-dictionary.txt < cases.tsv
 *
 * The dictionary is loaded from the file named (no fallback to the table
 * compiled into the library), so the release the fixture was made with is
 * the one that file names.
 *
 * Input, one case a line: <stem> TAB <AI data in the Syntax Engine's bracketed
 * syntax: "(" inside a value written "\(">. Output, one line per case the
 * Syntax Engine accepts: <AI data> TAB <stem> TAB <URI>; a refused case is
 * written to standard error as "refused" TAB <AI data> TAB <stem> TAB <its
 * message>. Exit status 0 when every line was read, 1 when the library or the
 * dictionary could not be set up or a line is malformed, 2 for usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs1encoders.h"

enum { kMaxLine = 8192 };

int main(int argc, char **argv) {
	gs1_encoder_init_status_t status;
	char message[512] = "";
	char line[kMaxLine];
	unsigned long lineNumber = 0;
	gs1_encoder *ctx;
	gs1_encoder_init_opts_t opts;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <gs1-syntax-dictionary.txt> < cases.tsv\n", argv[0]);
		return 2;
	}

	memset(&opts, 0, sizeof(opts));
	opts.struct_size = sizeof(opts);
	opts.flags = gs1_encoder_iDEFAULT;
	opts.status = &status;
	opts.msgBuf = message;
	opts.msgBufSize = sizeof(message);
	opts.syntaxDictionary = argv[1];
	ctx = gs1_encoder_init_ex(NULL, &opts);
	if (ctx == NULL || status != GS1_ENCODERS_INIT_SUCCESS) {
		fprintf(stderr, "the Syntax Engine could not load %s: %s\n", argv[1], message);
		return 1;
	}

	while (fgets(line, sizeof(line), stdin) != NULL) {
		char *tab;
		char *stem = line;
		char *aiData;
		const char *uri;
		size_t length = strlen(line);

		++lineNumber;
		if (length == 0 || line[length - 1] != '\n') {
			fprintf(stderr, "line %lu: longer than %d bytes or without a final line feed\n", lineNumber,
				kMaxLine - 2);
			gs1_encoder_free(ctx);
			return 1;
		}
		line[length - 1] = '\0';
		tab = strchr(line, '\t');
		if (tab == NULL || strchr(tab + 1, '\t') != NULL) {
			fprintf(stderr, "line %lu: expected <stem> TAB <AI data>\n", lineNumber);
			gs1_encoder_free(ctx);
			return 1;
		}
		*tab = '\0';
		aiData = tab + 1;

		if (!gs1_encoder_setAIdataStr(ctx, aiData)) {
			fprintf(stderr, "refused\t%s\t%s\t%s\n", aiData, stem, gs1_encoder_getErrMsg(ctx));
			continue;
		}
		uri = gs1_encoder_getDLuri(ctx, stem);
		if (uri == NULL || *uri == '\0') {
			fprintf(stderr, "refused\t%s\t%s\t%s\n", aiData, stem, gs1_encoder_getErrMsg(ctx));
			continue;
		}
		printf("%s\t%s\t%s\n", aiData, stem, uri);
	}

	gs1_encoder_free(ctx);
	return 0;
}
