console.log('sinew');
